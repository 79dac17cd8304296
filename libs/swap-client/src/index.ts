export * from './client';
export type { components, paths } from './schema';
export * from './watch';
