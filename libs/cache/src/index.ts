export * from './cache';
export * from './memory-cache';
export * from './redis-cache';
export * from './tiered-cache';
