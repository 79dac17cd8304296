/* global jest */
// Integration specs start real services against PostgreSQL, Redis and NATS: on a busy
// 2-core CI machine a hook that takes milliseconds alone can take seconds. (Jest reads
// testTimeout from the root config only, so each integration file sets it here.)
jest.setTimeout(30_000);
