import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The portal UI: static files served by partner-portal-api at /portal/ (docs/integrators/partner-portal.md#the-web-ui).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/portal/',
  esbuild: { jsx: 'automatic' },
  build: { outDir: fileURLToPath(new URL('../../dist/partner-portal-web', import.meta.url)), emptyOutDir: true, sourcemap: true },
  logLevel: 'warn',
});
