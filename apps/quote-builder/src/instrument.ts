import { startTracing } from '@swap/observability';

startTracing('quote-builder');
