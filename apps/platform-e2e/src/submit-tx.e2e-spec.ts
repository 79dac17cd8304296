import { Subjects } from '@swap/contracts';
import { MessagingClient, NatsBus } from '@swap/messaging';
import { jsonOf, RUN_PREFIX, sampleIntent, testInfra } from '@swap/testing';
import { KeyStack } from './key-stack';

jest.setTimeout(60_000);

const INTENT = sampleIntent();

describe('submit-tx, status and intent hashing (swaps routes, keys off)', () => {
  const stack = new KeyStack();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${stack.url('swap-gateway')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await jsonOf(res) };
  };
  const body = (over: Record<string, unknown> = {}) => ({ txHash: `0x${'1'.repeat(64)}`, srcChainKey: '0xa4b1.arbitrum', walletAddress: INTENT.srcAddress, intent: INTENT, relayData: '0xbeef', ...over });

  beforeAll(() => stack.start());
  afterAll(() => stack.stop());

  it('inserts the first submission of a pair and answers duplicate afterwards, also when submitted concurrently', async () => {
    const first = await post('/v1/swaps/submit-tx', body());
    expect(first).toEqual({ status: 200, body: { success: true, data: { status: 'inserted', message: expect.any(String) } } });
    expect((await post('/v1/swaps/submit-tx', body())).body.data.status).toBe('duplicate');
    const racing = await Promise.all(Array.from({ length: 10 }, () => post('/v1/swaps/submit-tx', body({ txHash: `0x${'2'.repeat(64)}` }))));
    expect(racing.filter((r) => r.body.data.status === 'inserted')).toHaveLength(1);
    expect(racing.filter((r) => r.body.data.status === 'duplicate')).toHaveLength(9);
  });

  it('treats the same hash on another chain as another submission', async () => {
    const base = await post('/v1/swaps/submit-tx', body({ srcChainKey: '0x2105.base', intent: { ...INTENT, srcChain: '30' } }));
    expect(base.body.data.status).toBe('inserted');
  });

  it('reports the status of a submission, and 404 for one never submitted', async () => {
    const res = await fetch(`${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'1'.repeat(64)}&srcChainKey=0xa4b1.arbitrum`);
    const status = await jsonOf(res);
    expect(status.data).toMatchObject({ status: 'pending', txHash: `0x${'1'.repeat(64)}`, srcChainKey: '0xa4b1.arbitrum', intentHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(status.data.userMessage).toBeUndefined();
    const missing = await fetch(`${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'9'.repeat(64)}&srcChainKey=0xa4b1.arbitrum`);
    expect(missing.status).toBe(404);
    const unknownChain = await fetch(`${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'9'.repeat(64)}&srcChainKey=nowhere`);
    expect((await jsonOf(unknownChain)).message).toBe('Unknown chain key: nowhere');
  });

  it('refuses malformed submissions, naming the field and the rule', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ txHash: '0x1234567890abcdef' }, 'txHash must be 0x followed by 64 hex digits on an EVM network'],
      [{ walletAddress: 'not-an-address' }, 'walletAddress must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case)'],
      [{ intent: { ...INTENT, srcChain: '30' } }, 'intent.srcChain must be 23, the relay chain id of 0xa4b1.arbitrum'],
      [{ intent: { ...INTENT, inputAmount: '1e6' } }, 'intent.inputAmount must be a non-negative integer in a decimal string, at most 2^256 - 1'],
      [{ intent: { ...INTENT, creator: '0x4fc1a3B9c2F4A1b8D1e5E6f7a8B9c0D1E2f3a4B5' } }, 'intent.creator must be a 20-byte hex address (0x and 40 hex digits, EIP-55 checksummed if mixed case)'],
      [{ relayData: 'dead' }, 'relayData must be the 0x-hex payload of the build response relayData'],
      [{ partnerFee: { percentage: 10 } }, 'property partnerFee should not exist'],
    ];
    for (const [over, message] of cases) {
      const res = await post('/v1/swaps/submit-tx', body(over));
      expect({ over, status: res.status, message: res.body.message }).toEqual({ over, status: 400, message });
    }
    const unknown = await post('/v1/swaps/submit-tx', body({ srcChainKey: '0x1.nowhere' }));
    expect(unknown).toEqual({ status: 404, body: expect.objectContaining({ code: 'CHAIN_NOT_FOUND' }) });
  });

  it('hashes an intent as keccak256(abi.encode(intent)), and refuses values beyond uint256', async () => {
    const hash = await post('/v1/swaps/intents/hash', { intent: INTENT });
    expect(hash.body.hash).toMatch(/^0x[0-9a-f]{64}$/);
    const status = await fetch(`${stack.url('swap-gateway')}/v1/swaps/submit-tx/status?txHash=0x${'1'.repeat(64)}&srcChainKey=0xa4b1.arbitrum`).then(jsonOf);
    expect(status.data.intentHash).toBe(hash.body.hash);
    const tooBig = await post('/v1/swaps/intents/hash', { intent: { ...INTENT, intentId: (2n ** 256n).toString() } });
    expect(tooBig.status).toBe(400);
  });

  it('answers key-registry operations over NATS with typed replies and validation errors', async () => {
    const bus = await NatsBus.connect({ servers: testInfra.natsUrl, name: 'portal-like-client', subjectPrefix: RUN_PREFIX });
    const client = new MessagingClient(bus, { timeoutMs: 2_000 });
    try {
      const org = await client.request(Subjects.orgCreate, { name: 'Over NATS', actor: 'user:1' });
      const created = await client.request(Subjects.keyCreate, { orgId: org.id, name: 'ci', actor: 'user:1' });
      expect(created.key.startsWith(created.apiKey.prefix)).toBe(true);
      const snapshot = await client.request(Subjects.keySetSnapshot, {});
      expect(snapshot.version).toBeGreaterThan(1);
      expect(snapshot.keys.find((k) => k.keyId === created.apiKey.id)).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), keyId: created.apiKey.id, orgId: org.id, scopes: ['swaps:read', 'swaps:write'], suspended: false });
      expect(JSON.stringify(snapshot)).not.toContain(created.key);
      const error = await client.request(Subjects.keyCreate, { orgId: org.id, name: 'y'.repeat(65), actor: 'user:1' }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'name must be at most 64 characters' });
      const missing = await client.request(Subjects.keyRevoke, { orgId: org.id, keyId: '00000000-0000-0000-0000-000000000000', actor: 'user:1' }).catch((e: unknown) => e);
      expect(missing).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await bus.close();
    }
  });
});
