export * from './chain-catalog-mirror';
