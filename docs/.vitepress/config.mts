// The docs as a browsable site: `npm run docs:build` writes dist/docs (not needed to read
// them: the Markdown reads as it is on disk or on GitHub). Headings get GitHub's anchors,
// the same slugs the link check (tools/docs) holds every link to.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitepress';
import { slugify } from '../../tools/docs/src/links';

type Item = { text: string; link: string };
const DOCS = join(__dirname, '..');

/** Every page under the folder (sub-folders too), titled by its first heading. */
function pagesIn(folder: string): Item[] {
  return readdirSync(join(DOCS, folder))
    .sort()
    .flatMap((name): Item[] => {
      const path = join(folder, name);
      if (statSync(join(DOCS, path)).isDirectory()) return pagesIn(path);
      if (!name.endsWith('.md')) return [];
      const title = /^# (.+)$/m.exec(readFileSync(join(DOCS, path), 'utf8'))?.[1] ?? name;
      return [{ text: title.replace(/`/g, ''), link: `/${path.replace(/\.md$/, '')}` }];
    });
}

/** The reading order given first, then every other page of the folder: none is left out of the sidebar. */
function section(folder: string, ordered: Item[]): Item[] {
  const listed = new Set(ordered.map((item) => item.link));
  return [...ordered, ...pagesIn(folder).filter((page) => !listed.has(page.link))];
}

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
  { text: 'Leveraged-yield vaults', link: '/integrators/leverage-yield' },
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
  { text: 'Monitoring: objectives, alerts, dashboards', link: '/operators/monitoring' },
  { text: 'Traces', link: '/operators/tracing' },
  { text: 'Alert runbooks', link: '/operators/alerts/' },
  { text: 'Runbooks', link: '/operators/runbooks' },
];

const architecture = [
  { text: 'Services and their bus contract', link: '/architecture/services' },
  { text: 'Settlement', link: '/architecture/settlement' },
  { text: 'The solver marketplace', link: '/architecture/marketplace' },
  { text: 'Key sets and epochs', link: '/architecture/key-sets' },
  { text: 'Usage counting inside', link: '/architecture/usage' },
  { text: 'Oracle candles inside', link: '/architecture/oracle-candles' },
  { text: 'Choices and why', link: '/architecture/choices' },
];

export default defineConfig({
  title: 'Swap platform',
  description: 'Cross-network swap platform: integrators, operators, architecture, development',
  outDir: '../dist/docs',
  cacheDir: '../dist/.vitepress-cache',
  // Links that leave docs/ (the README, libs/swap-client/README.md, tools/devnet/CONTRACTS.md, examples/)
  // are the repository's files, not pages of this site; the link check covers them.
  ignoreDeadLinks: [/^(\.\/)?(\.\.\/)+(README|libs|tools|examples)\b/],
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
      { text: 'Integrators', items: section('integrators', integrators) },
      { text: 'Operators', items: section('operators', operators) },
      { text: 'Architecture', items: section('architecture', architecture) },
      { text: 'Contributors', items: [{ text: 'Development', link: '/development' }] },
    ],
    outline: { level: [2, 3] },
    search: { provider: 'local' },
  },
});
