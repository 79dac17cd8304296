export * from './bus';
export * from './nats-bus';
export * from './in-process-bus';
export * from './envelope';
export * from './bus-server';
export * from './messaging-client';
export * from './work-queue';
export * from './pg-work-queue';
