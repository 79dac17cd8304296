export * from './load-config';
export * from './validators';
export * from './service-config';
export * from './operator-tokens';
export * from './url-secrets';
