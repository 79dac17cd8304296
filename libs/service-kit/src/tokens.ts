/** Injection tokens for what the service kit provides to every service module. */
export const CACHE = Symbol('swap:cache');
export const LOGGER = Symbol('swap:logger');
export const SERVICE_NAME = Symbol('swap:service-name');
