import { startTracing } from '@swap/observability';

startTracing('api-gateway');
