import { Subjects } from '@swap/contracts';
import { portalHarnessPerSuite } from '../testing/portal-harness';

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
});
