import type { DeploymentReadiness } from '@swap/contracts';

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;

/** `modes readiness`: the deployment's side per route, then each organisation's. */
export function readinessTable(r: DeploymentReadiness): string {
  const lines = [
    `Enforcement readiness, ${r.from} to ${r.to} (ready: at least ${percent(r.threshold)} valid for 7 days)`,
    '',
    'Deployment: requests with no key or an invalid one (refused once enforced)',
    `${'route'.padEnd(40)} ${'mode'.padEnd(8)} ${'requests'.padStart(10)} ${'unkeyed'.padStart(10)} ${'share'.padStart(8)}`,
    ...r.routes.map(
      (x) =>
        `${x.route.padEnd(40)} ${(x.mode ?? '-').padEnd(8)} ${String(x.requests).padStart(10)} ${String(x.unidentified).padStart(10)} ${percent(x.unidentifiedShare).padStart(8)}`,
    ),
  ];
  if (r.routes.length === 0) lines.push('(no requests on keyed routes counted in the window)');
  lines.push('', 'Organisations: identified requests with the route’s scope, not suspended');
  lines.push(`${'organisation'.padEnd(38)} ${'route'.padEnd(40)} ${'requests'.padStart(10)} ${'valid'.padStart(8)} status`);
  for (const org of r.organisations)
    for (const x of org.routes)
      lines.push(
        `${org.orgId.padEnd(38)} ${x.route.padEnd(40)} ${String(x.identified).padStart(10)} ${percent(x.share).padStart(8)} ${x.status}`,
      );
  if (r.organisations.length === 0) lines.push('(no organisation’s key was presented in the window)');
  return lines.join('\n');
}
