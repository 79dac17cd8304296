import { startTracing } from '@swap/observability';

startTracing('key-registry');
