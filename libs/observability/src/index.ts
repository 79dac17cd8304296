export * from './request-context';
export * from './logger';
export * from './metrics';
export * from './readiness';
export * from './tracing';
