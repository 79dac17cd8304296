import { Subjects } from '@swap/contracts';
import { FEE_ROWS, portalHarnessPerSuite } from '../testing/portal-harness';

const TX = `0x${'ab'.repeat(32)}`;

describe("the organisation's swaps through the portal: members only, queries checked before relay-tracker is asked", () => {
  const h = portalHarnessPerSuite();
  const asked = () => h().registry.requestsOn(Subjects.orgSwapList).concat(h().registry.requestsOn(Subjects.orgSwapGet));

  it('any member lists them; relay-tracker is asked for this organisation with the filters given', async () => {
    const t = await h().team();
    h().registry.received.splice(0);

    const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/swaps?status=failed&txHash=${TX}&limit=20&cursor=abc`);

    expect(res).toEqual({ status: 200, body: { swaps: [] } });
    expect(h().registry.requestsOn(Subjects.orgSwapList)).toEqual([
      { orgId: t.orgId, status: 'failed', txHash: TX, limit: 20, cursor: 'abc' },
    ]);
  });

  it('someone outside the organisation gets 404 on both routes, and relay-tracker is not asked', async () => {
    const t = await h().team();
    const stranger = await h().person('stranger');
    h().registry.received.splice(0);

    for (const path of [`/portal/api/orgs/${t.orgId}/swaps`, `/portal/api/orgs/${t.orgId}/swaps/0xa4b1.arbitrum/${TX}`])
      expect(await stranger.call('GET', path)).toMatchObject({ status: 404, body: { message: 'Organisation not found' } });
    expect(asked()).toEqual([]);
  });

  it.each([
    ['status=done', 'status', 'status must be one of pending, relaying, relayed, posting_execution, posted_execution, solved, failed'],
    [
      'txHash=0x1234',
      'txHash',
      'txHash must be a transaction hash: 64 hex digits (0x optional), or base58 (a Solana signature, a Sui digest)',
    ],
    ['limit=0', 'limit', 'limit must be 1 to 100'],
    ['limit=101', 'limit', 'limit must be 1 to 100'],
  ])('refuses ?%s with 400 naming %s', async (query, field, message) => {
    const t = await h().team();
    h().registry.received.splice(0);

    const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/swaps?${query}`);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(asked()).toEqual([]);
  });

  it("one swap: a malformed hash is 400; relay-tracker's 404 (not this organisation's swap) is passed on", async () => {
    const t = await h().team();

    const bad = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/swaps/0xa4b1.arbitrum/not-a-hash`);
    expect(bad).toMatchObject({ status: 400, body: { details: [expect.objectContaining({ field: 'txHash' })] } });
    const unknown = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/swaps/0xa4b1.arbitrum/${TX}`);
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: `No swap of transaction ${TX} on 0xa4b1.arbitrum was submitted with this organisation's keys` },
    });
    expect(h().registry.requestsOn(Subjects.orgSwapGet)).toEqual([{ orgId: t.orgId, srcChainKey: '0xa4b1.arbitrum', txHash: TX }]);
  });

  describe('the fee report', () => {
    it('any member reads it per day, token and receiver for [from, to); relay-tracker is asked for whole UTC days', async () => {
      const t = await h().team();
      h().registry.received.splice(0);

      const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/fees?from=2026-11-01&to=2026-12-01`);

      expect(res).toEqual({ status: 200, body: { from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z', fees: FEE_ROWS } });
      expect(h().registry.requestsOn(Subjects.orgSwapFees)).toEqual([
        { orgId: t.orgId, from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z' },
      ]);
    });

    it('by default the 30 days up to today included', async () => {
      const t = await h().team();
      h().registry.received.splice(0);

      expect((await t.member.call('GET', `/portal/api/orgs/${t.orgId}/fees`)).status).toBe(200);

      const [asked] = h().registry.requestsOn(Subjects.orgSwapFees) as { from: string; to: string }[];
      const tomorrow = `${new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`;
      expect(asked.to).toBe(tomorrow);
      expect(Date.parse(asked.to) - Date.parse(asked.from)).toBe(30 * 86_400_000);
    });

    it('as CSV for a spreadsheet: a header row, one line per row, amounts exact', async () => {
      const t = await h().team();
      const res = await fetch(`${h().url}/portal/api/orgs/${t.orgId}/fees?from=2026-11-01&to=2026-12-01&format=csv`, {
        headers: { cookie: [...t.member.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
      });

      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="fees-2026-11-01-2026-12-01.csv"');
      expect(await res.text()).toBe(
        ['day,token,receiver,amount,swaps', ...FEE_ROWS.map((f) => `${f.day},${f.token},${f.receiver},${f.amount},${f.swaps}`), ''].join(
          '\n',
        ),
      );
    });

    it.each([
      ['from=2026-11', 'from', 'matches', 'from must be a day: YYYY-MM-DD'],
      ['from=2026-13-01', 'from', 'format', 'from must be a day: YYYY-MM-DD'],
      ['from=2026-02-30&to=2026-03-05', 'from', 'format', 'from must be a day: YYYY-MM-DD'],
      ['from=2026-12-01&to=2026-11-01', 'to', 'order', 'to must be after from'],
      ['from=2025-01-01&to=2026-12-01', 'from', 'range', 'from and to may be at most 366 days apart'],
      ['format=xml', 'format', 'isIn', 'format must be json or csv'],
    ])('refuses ?%s with 400 naming %s and the rule %s; relay-tracker is not asked', async (query, field, rule, message) => {
      const t = await h().team();
      h().registry.received.splice(0);

      const res = await t.member.call('GET', `/portal/api/orgs/${t.orgId}/fees?${query}`);

      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, rule })]));
      expect(h().registry.requestsOn(Subjects.orgSwapFees)).toEqual([]);
    });

    it('someone outside the organisation gets 404', async () => {
      const t = await h().team();
      const stranger = await h().person('stranger');
      expect(await stranger.call('GET', `/portal/api/orgs/${t.orgId}/fees`)).toMatchObject({ status: 404 });
    });
  });
});
