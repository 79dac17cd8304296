export * from './chain-registry';
export * from './profiles';
export * from './intent';
