export * from './key-format';
export * from './key-set-cache';
export * from './keyed-route.decorator';
export * from './api-key.guard';
export * from './key-auth.module';
export * from './operator.guard';
export * from './key-set-events';
