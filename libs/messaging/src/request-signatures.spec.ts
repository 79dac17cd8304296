import { AppError } from '@swap/contracts';
import { RequestSignatureCheck, RequestSigner, SIGNED_REQUEST_WINDOW_MS } from './request-signatures';
import { generateSigningKeyPair, parsePublicKeys, parseSigningKey } from './signed-payload';

describe('signed requests', () => {
  const pair = generateSigningKeyPair();
  let now = 1_800_000_000_000;
  const clock = () => now;
  const signer = new RequestSigner(parseSigningKey(pair.signingKey), clock);
  const check = () => new RequestSignatureCheck(parsePublicKeys(pair.publicKey), 'partner-portal-api', clock);
  const reason = (run: () => void): string => {
    try {
      run();
      return 'served';
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).getStatus()).toBe(401);
      return (error as AppError).message.replace('This request must be signed by partner-portal-api: ', '');
    }
  };

  it('serves a request within the window once, and a replay of it never, until its time is past too', () => {
    const receiver = check();
    const body = '{"name":"Acme","actor":"user:1"}';
    const headers = signer.headers('key-registry.orgs.create.v1', body);
    now += SIGNED_REQUEST_WINDOW_MS - 1;
    expect(reason(() => receiver.verify('key-registry.orgs.create.v1', headers, body))).toBe('served');
    expect(reason(() => receiver.verify('key-registry.orgs.create.v1', headers, body))).toBe('a replay: this nonce was already served');
    now += 2;
    expect(reason(() => receiver.verify('key-registry.orgs.create.v1', headers, body))).toMatch(
      /^signed at \d+, more than 60000 ms from now$/,
    );
  });

  it('forgets nonces once their window has passed: memory stays bounded by the traffic of one window', () => {
    const receiver = check();
    for (let i = 0; i < 50; i++) {
      const body = `{"n":${i}}`;
      receiver.verify('s', signer.headers('s', body), body);
    }
    expect(receiver.remembered).toBe(50);
    now += 2 * SIGNED_REQUEST_WINDOW_MS + 1;
    receiver.verify('s', signer.headers('s', '{}'), '{}');
    expect(receiver.remembered).toBe(1);
  });

  it('takes two keys while rotating, and names an unknown one', () => {
    const next = generateSigningKeyPair();
    const both = new RequestSignatureCheck(parsePublicKeys(`${pair.publicKey},${next.publicKey}`), 'partner-portal-api', clock);
    const nextSigner = new RequestSigner(parseSigningKey(next.signingKey), clock);
    expect(reason(() => both.verify('s', signer.headers('s', 'a'), 'a'))).toBe('served');
    expect(reason(() => both.verify('s', nextSigner.headers('s', 'b'), 'b'))).toBe('served');
    expect(reason(() => check().verify('s', nextSigner.headers('s', 'c'), 'c'))).toBe(`signed by an unknown key "${nextSigner.keyId}"`);
  });

  it('refuses missing headers and an altered signing time', () => {
    const headers = signer.headers('s', 'x');
    expect(reason(() => check().verify('s', {}, 'x'))).toBe('it carries no signature');
    const unsigned = { ...headers };
    delete unsigned['x-signature'];
    expect(reason(() => check().verify('s', unsigned, 'x'))).toBe('it carries no signature');
    expect(reason(() => check().verify('s', { ...headers, 'x-signed-at': 'soon' }, 'x'))).toBe(
      'the signature does not match the subject, headers and body',
    );
  });
});
