import { startTracing } from '@swap/observability';

startTracing('reference-solver');
