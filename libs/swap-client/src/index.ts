export * from './client';
export * from './errors';
export * from './types';
export type { components, paths } from './schema';
export * from './watch';
