import { readinessTable } from './readiness-table';

describe('modes readiness', () => {
  it('prints the deployment’s unkeyed share per route, then each organisation’s routes with their status', () => {
    const text = readinessTable({
      from: '2026-11-20T10:00:00.000Z',
      to: '2026-11-27T10:00:00.000Z',
      threshold: 0.999,
      routes: [{ route: 'POST /v1/swaps/quote', mode: 'monitor', requests: 1099, unidentified: 50, unidentifiedShare: 50 / 1099 }],
      organisations: [
        {
          orgId: 'org-1',
          routes: [
            {
              route: 'POST /v1/swaps/quote',
              identified: 999,
              valid: 999,
              share: 1,
              firstSeen: '2026-11-19T00:00:00.000Z',
              status: 'ready',
            },
            {
              route: 'POST /v1/swaps/submit-tx',
              identified: 1000,
              valid: 998,
              share: 0.998,
              firstSeen: '2026-11-19T00:00:00.000Z',
              status: 'not-ready',
            },
          ],
        },
      ],
    }).split('\n');
    expect(text[0]).toBe(
      'Enforcement readiness, 2026-11-20T10:00:00.000Z to 2026-11-27T10:00:00.000Z (ready: at least 99.90% valid for 7 days)',
    );
    expect(text).toContainEqual(expect.stringMatching(/^POST \/v1\/swaps\/quote +monitor +1099 +50 +4\.55%$/));
    expect(text).toContainEqual(expect.stringMatching(/^org-1 +POST \/v1\/swaps\/quote +999 +100\.00% ready$/));
    expect(text).toContainEqual(expect.stringMatching(/^org-1 +POST \/v1\/swaps\/submit-tx +1000 +99\.80% not-ready$/));
  });

  it('says so when nothing was counted', () => {
    const text = readinessTable({ from: 'a', to: 'b', threshold: 0.999, routes: [], organisations: [] });
    expect(text).toContain('(no requests on keyed routes counted in the window)');
    expect(text).toContain('(no organisation’s key was presented in the window)');
  });
});
