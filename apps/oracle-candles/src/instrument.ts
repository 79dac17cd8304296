import { startTracing } from '@swap/observability';

startTracing('oracle-candles');
