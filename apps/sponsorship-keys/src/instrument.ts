import { startTracing } from '@swap/observability';

startTracing('sponsorship-keys');
