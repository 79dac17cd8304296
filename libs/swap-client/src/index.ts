export * from './client';
export * from './types';
export type { components, paths } from './schema';
export * from './watch';
