export * from './infra';
export * from './log-capture';
export * from './fixtures';
export * from './hermes-double';
export * from './nats-server';
export * from './event-stream';
export * from './catalog-signing';
export * from './otlp-receiver';
