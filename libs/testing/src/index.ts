export * from './infra';
export * from './log-capture';
