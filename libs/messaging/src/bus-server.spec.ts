import { Subjects } from '@swap/contracts';
import { BusServer } from './bus-server';
import { decodeReply } from './envelope';
import { InProcessBus } from './in-process-bus';
import { RequestSignatureCheck, RequestSigner } from './request-signatures';
import { generateSigningKeyPair, parsePublicKeys, parseSigningKey } from './signed-payload';

describe('BusServer and signed requests', () => {
  const portal = generateSigningKeyPair();
  const usage = generateSigningKeyPair();
  let bus: InProcessBus;
  let handler: jest.Mock;

  beforeEach(async () => {
    bus = new InProcessBus();
    const portalCheck = new RequestSignatureCheck(parsePublicKeys(portal.publicKey), 'partner-portal-api');
    const server = new BusServer(bus, { queue: 'bus-server-spec', requestSignatures: { portal: portalCheck } });
    handler = jest.fn(async () => ({ served: true }));
    server.addHandler(Subjects.usageRecord, handler);
    server.addHandler(Subjects.orgCreate, handler);
    await new Promise<void>((resolve) => server.listen(() => resolve()));
  });

  afterEach(() => bus.close());

  const ask = async (subject: string, key: string) => {
    const body = JSON.stringify({ batchId: 'b', rows: [] });
    const headers = new RequestSigner(parseSigningKey(key)).headers(subject, body);
    return decodeReply((await bus.request(subject, body, { timeoutMs: 1_000, headers })).data);
  };

  it('refuses a signed subject, however signed, where it holds no check for its signer, and never runs the handler', async () => {
    expect(await ask(Subjects.usageRecord, usage.signingKey)).toMatchObject({ ok: false, error: { statusCode: 500 } });
    expect(await ask(Subjects.usageRecord, portal.signingKey)).toMatchObject({ ok: false, error: { statusCode: 500 } });
    expect(handler).not.toHaveBeenCalled();
    expect(await ask(Subjects.orgCreate, portal.signingKey)).toEqual({ ok: true, data: { served: true } });
    expect(handler).toHaveBeenCalledTimes(1);
  });
});
