import { AppError, Subjects } from '@swap/contracts';
import { FakeReply, FakeServices, REGISTRY_SNAPSHOT } from '../testing/gateway-doubles';
import { TokensController } from './tokens.controller';
import { testCatalogSigning } from '@swap/testing';

/*
 * The token reads, answered from quote-builder's catalog snapshot held in memory (asked
 * for once over an in-process bus here): JSON text as it is kept, chains by key or alias in
 * any letter case.
 */

describe('TokensController', () => {
  let services: FakeServices;
  let controller: TokensController;
  beforeEach(() => {
    services = new FakeServices().answer(Subjects.catalogSnapshot, () => testCatalogSigning.sign(REGISTRY_SNAPSHOT));
    controller = new TokensController(testCatalogSigning.mirror(services.messaging));
  });
  afterEach(() => services.close());

  it('answers every chain’s tokens, and one chain’s by key or alias in any letter case, as JSON text', async () => {
    const replies = [new FakeReply(), new FakeReply(), new FakeReply()];
    await controller.all(replies[0].asFastify);
    await controller.ofChain('SONIC', replies[1].asFastify);
    await controller.ofChain('0xA4B1.Arbitrum', replies[2].asFastify);
    const hubTokens = JSON.stringify(REGISTRY_SNAPSHOT.tokensByChain['0x92.sonic']);
    expect(replies.map((r) => ({ body: r.body, type: r.headers['content-type'] }))).toEqual([
      { body: JSON.stringify(REGISTRY_SNAPSHOT.tokensByChain), type: 'application/json; charset=utf-8' },
      { body: hubTokens, type: 'application/json; charset=utf-8' },
      { body: '[]', type: 'application/json; charset=utf-8' },
    ]);
    expect(services.payloadsOn(Subjects.catalogSnapshot)).toHaveLength(1);
  });

  it('answers an unknown chain key with 404 CHAIN_NOT_FOUND, sending nothing', async () => {
    const reply = new FakeReply();
    const error = (await controller.ofChain('0x1.nowhere', reply.asFastify).catch((e: unknown) => e)) as AppError;
    expect({ error: error.toBody(), body: reply.body }).toEqual({
      error: { statusCode: 404, code: 'CHAIN_NOT_FOUND', message: 'Unknown chain key: 0x1.nowhere' },
      body: undefined,
    });
  });
});
