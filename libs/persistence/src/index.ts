export * from './database-url';
export * from './ensure-database';
export * from './migrations';
export * from './prisma-client';
