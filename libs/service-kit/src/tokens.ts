/** Injection tokens for what the service kit provides to every service module. */
export const CACHE = Symbol('swap:cache');
export const LOGGER = Symbol('swap:logger');
export const SERVICE_NAME = Symbol('swap:service-name');
/** The ReadModelStore shared by the services that write and read the same answers (relay-tracker, swap-gateway). */
export const READ_MODELS = Symbol('swap:read-models');
/** The service's `pg` Pool (the one its Prisma client runs on): for hot paths where one plain statement beats a model query. */
export const DATABASE_POOL = Symbol('swap:database-pool');
