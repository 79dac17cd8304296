export * from './chain-registry';
export * from './profiles';
export * from './intent';
export * from './protocol-calls';
export * from './evm-adapter';
export * from './solana-adapter';
export * from './amounts';
