import { startTracing } from '@swap/observability';

startTracing('relay-tracker');
