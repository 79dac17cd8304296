export * from './chain-catalog-mirror';
export * from './catalog-test-signing';
