import { startTracing } from '@swap/observability';

startTracing('swap-platform', { servicesInProcess: true });
