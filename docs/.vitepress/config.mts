// The docs as a browsable site: `npm run docs:build` writes dist/docs (not needed to read
// them: the Markdown reads as it is on disk or on GitHub). Headings get GitHub's anchors,
// the same slugs the link check (tools/docs) holds every link to.
import { defineConfig } from 'vitepress';
import { slugify } from '../../tools/docs/src/links';

const integrators = [
  { text: 'Quick start', link: '/integrators/quick-start' },
  { text: 'Routes', link: '/integrators/routes' },
  { text: 'A whole swap', link: '/integrators/whole-swap' },
  { text: 'Quotes, execution and limit orders', link: '/integrators/quotes' },
  { text: 'Building transactions', link: '/integrators/transactions' },
  { text: 'Errors', link: '/integrators/errors' },
  { text: 'API keys', link: '/integrators/api-keys' },
  { text: 'Partner portal', link: '/integrators/partner-portal' },
  { text: 'The API description and the typed client', link: '/integrators/typed-client' },
  { text: 'Writing a solver', link: '/integrators/solvers' },
  { text: 'Oracle candles', link: '/integrators/candles' },
  { text: 'The devnet', link: '/integrators/devnet' },
];

const operators = [
  { text: 'Running in cluster mode', link: '/operators/cluster-mode' },
  { text: 'Configuration reference', link: '/operators/configuration' },
  { text: 'Deploying to Kubernetes', link: '/operators/kubernetes' },
  { text: 'Securing the bus', link: '/operators/securing-the-bus' },
  { text: 'Scaling relay-tracker', link: '/operators/scaling-relay-tracker' },
  { text: 'Capacity', link: '/operators/capacity' },
  { text: 'The gateway', link: '/operators/gateway' },
  { text: 'Health, metrics, logs and shutdown', link: '/operators/health-and-observability' },
  { text: 'Operator routes and the ops tool', link: '/operators/operator-access' },
  { text: 'Database migrations', link: '/operators/database-migrations' },
  { text: 'Runbooks', link: '/operators/runbooks' },
];

const architecture = [
  { text: 'Services and their bus contract', link: '/architecture/services' },
  { text: 'Settlement', link: '/architecture/settlement' },
  { text: 'The solver marketplace', link: '/architecture/marketplace' },
  { text: 'Key sets and epochs', link: '/architecture/key-sets' },
  { text: 'Oracle candles inside', link: '/architecture/oracle-candles' },
  { text: 'Choices and why', link: '/architecture/choices' },
];

export default defineConfig({
  title: 'Swap platform',
  description: 'Cross-network swap platform: integrators, operators, architecture, development',
  outDir: '../dist/docs',
  cacheDir: '../dist/.vitepress-cache',
  // Links that leave docs/ (the README, libs/swap-client/README.md, tools/devnet/CONTRACTS.md)
  // are the repository's files, not pages of this site; the link check covers them.
  ignoreDeadLinks: [/^(\.\/)?(\.\.\/)+(README|libs|tools)\b/],
  markdown: { anchor: { slugify } },
  themeConfig: {
    nav: [
      { text: 'Integrators', link: '/integrators/quick-start' },
      { text: 'Operators', link: '/operators/cluster-mode' },
      { text: 'Architecture', link: '/architecture/services' },
      { text: 'Development', link: '/development' },
    ],
    sidebar: [
      { text: 'Contents', link: '/' },
      { text: 'Integrators', items: integrators },
      { text: 'Operators', items: operators },
      { text: 'Architecture', items: architecture },
      { text: 'Contributors', items: [{ text: 'Development', link: '/development' }] },
    ],
    outline: { level: [2, 3] },
    search: { provider: 'local' },
  },
});
