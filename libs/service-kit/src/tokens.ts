export const CACHE = Symbol('swap:cache');
export const LOGGER = Symbol('swap:logger');
export const SERVICE_NAME = Symbol('swap:service-name');
export const READ_MODELS = Symbol('swap:read-models');
/** For hot paths where one plain statement beats a model query. */
export const DATABASE_POOL = Symbol('swap:database-pool');
