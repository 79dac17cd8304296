import { startTracing } from '@swap/observability';

/** The main's first import: one process, so one service name for every service in it (docs/operators/tracing.md). */
startTracing('swap-platform');
