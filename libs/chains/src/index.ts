export * from './chain-registry';
export * from './profiles';
