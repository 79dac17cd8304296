export * from './cache';
export * from './memory-cache';
export * from './redis-cache';
export * from './tiered-cache';
export * from './read-model-store';
export * from './fallback-counter';
