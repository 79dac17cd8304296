import { AppError } from '@swap/contracts';
import { RequestSignatureCheck, RequestSigner, SIGNED_REQUEST_WINDOW_MS } from './request-signatures';
import { generateSigningKeyPair, parsePublicKeys, parseSigningKey } from './signed-payload';

describe('signed requests', () => {
  const pair = generateSigningKeyPair();
  let now = 1_800_000_000_000;
  const clock = () => now;
  const signer = new RequestSigner(parseSigningKey(pair.signingKey), clock);
  const check = () => new RequestSignatureCheck(parsePublicKeys(pair.publicKey), 'partner-portal-api', clock);
  const reason = async (run: () => Promise<void>): Promise<string> => {
    try {
      await run();
      return 'served';
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).getStatus()).toBe(401);
      return (error as AppError).message.replace('This request must be signed by partner-portal-api: ', '');
    }
  };

  it('serves a request within the window once, and a replay of it never, until its time is past too', async () => {
    const receiver = check();
    const body = '{"name":"Acme","actor":"user:1"}';
    const headers = signer.headers('key-registry.orgs.create.v1', body);
    now += SIGNED_REQUEST_WINDOW_MS - 1;
    expect(await reason(() => receiver.verify('key-registry.orgs.create.v1', headers, body))).toBe('served');
    expect(await reason(() => receiver.verify('key-registry.orgs.create.v1', headers, body))).toBe(
      'a replay: this nonce was already served',
    );
    now += 2;
    expect(await reason(() => receiver.verify('key-registry.orgs.create.v1', headers, body))).toMatch(
      /^signed at \d+, more than 60000 ms from now$/,
    );
  });

  it('forgets nonces once their window has passed: memory stays bounded by the traffic of one window', async () => {
    const receiver = check();
    for (let i = 0; i < 50; i++) {
      const body = `{"n":${i}}`;
      await receiver.verify('s', signer.headers('s', body), body);
    }
    expect(receiver.remembered).toBe(50);
    now += 2 * SIGNED_REQUEST_WINDOW_MS + 1;
    await receiver.verify('s', signer.headers('s', '{}'), '{}');
    expect(receiver.remembered).toBe(1);
  });

  it('takes two keys while rotating, and names an unknown one', async () => {
    const next = generateSigningKeyPair();
    const both = new RequestSignatureCheck(parsePublicKeys(`${pair.publicKey},${next.publicKey}`), 'partner-portal-api', clock);
    const nextSigner = new RequestSigner(parseSigningKey(next.signingKey), clock);
    expect(await reason(() => both.verify('s', signer.headers('s', 'a'), 'a'))).toBe('served');
    expect(await reason(() => both.verify('s', nextSigner.headers('s', 'b'), 'b'))).toBe('served');
    expect(await reason(() => check().verify('s', nextSigner.headers('s', 'c'), 'c'))).toBe(
      `signed by an unknown key "${nextSigner.keyId}"`,
    );
  });

  it('refuses missing headers and an altered signing time', async () => {
    const headers = signer.headers('s', 'x');
    expect(await reason(() => check().verify('s', {}, 'x'))).toBe('it carries no signature');
    const unsigned = { ...headers };
    delete unsigned['x-signature'];
    expect(await reason(() => check().verify('s', unsigned, 'x'))).toBe('it carries no signature');
    expect(await reason(() => check().verify('s', { ...headers, 'x-signed-at': 'soon' }, 'x'))).toBe(
      'the signature does not match the subject, headers and body',
    );
  });

  it('refuses a replay to another replica through the shared ledger, and falls back to its own memory when the ledger is down', async () => {
    const holders = new Map<string, string>();
    const ledger = {
      down: false,
      /** As ioredis resends a command whose answer a dropped connection lost: the claim arrives twice. */
      resend: false,
      claim: async (key: string, token: string) => {
        if (ledger.down) throw new Error('redis down');
        const once = () => (holders.get(key) ?? (holders.set(key, token), token)) === token;
        return ledger.resend ? (once(), once()) : once();
      },
    };
    const unreachable: unknown[] = [];
    const [a, b] = [check(), check()];
    for (const replica of [a, b]) replica.shareNoncesThrough(ledger, (error) => unreachable.push(error));
    const body = '{"name":"Acme","actor":"user:1"}';
    const headers = signer.headers('key-registry.orgs.create.v1', body);
    expect(await reason(() => a.verify('key-registry.orgs.create.v1', headers, body))).toBe('served');
    expect(await reason(() => b.verify('key-registry.orgs.create.v1', headers, body))).toBe(
      'a replay: this nonce was already served by another replica',
    );
    expect(await reason(() => a.verify('key-registry.orgs.create.v1', headers, body))).toBe('a replay: this nonce was already served');
    // A forgery is refused before the ledger is asked: it cannot use up a genuine request's nonce.
    const sizeBefore = holders.size;
    const next = signer.headers('s', 'x');
    expect(await reason(() => b.verify('s', { ...next, 'x-signed-at': '1' }, 'x'))).toBe(
      'the signature does not match the subject, headers and body',
    );
    expect(holders.size).toBe(sizeBefore);
    expect(await reason(() => b.verify('s', next, 'x'))).toBe('served');
    // A claim that reached the ledger twice (resent) is still this request's own: served, not taken for a replay.
    ledger.resend = true;
    const resent = signer.headers('s', 'z');
    expect(await reason(() => b.verify('s', resent, 'z'))).toBe('served');
    expect(await reason(() => a.verify('s', resent, 'z'))).toBe('a replay: this nonce was already served by another replica');
    ledger.resend = false;

    ledger.down = true;
    const later = signer.headers('s', 'y');
    expect(await reason(() => a.verify('s', later, 'y'))).toBe('served');
    expect(await reason(() => a.verify('s', later, 'y'))).toBe('a replay: this nonce was already served');
    expect(unreachable).toHaveLength(1);
  });
});
