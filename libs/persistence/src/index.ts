export * from './database-url';
export * from './ensure-database';
export * from './migrations';
export * from './prisma-client';
export * from './versioned-change';
export * from './pg-transaction';
export * from './prepared-rows';
