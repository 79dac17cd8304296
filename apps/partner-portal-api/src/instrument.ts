import { startTracing } from '@swap/observability';

startTracing('partner-portal-api');
