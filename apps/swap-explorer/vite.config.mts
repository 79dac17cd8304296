import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The swap timeline page: static files served by api-gateway at /explorer/ (docs/integrators/explorer.md#the-swap-timeline-page).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/explorer/',
  esbuild: { jsx: 'automatic' },
  build: { outDir: fileURLToPath(new URL('../../dist/swap-explorer-web', import.meta.url)), emptyOutDir: true, sourcemap: true },
  logLevel: 'warn',
});
