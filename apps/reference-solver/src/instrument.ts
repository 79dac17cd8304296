import { startTracing } from '@swap/observability';

/** The main's first import: the SDK patches HTTP, Fastify, pg and ioredis before they load (docs/operators/tracing.md). */
startTracing('reference-solver');
