import { AppError, IntentRequestDto, QuoteRequestDto, Subjects, type ErrorBody } from '@swap/contracts';
import { createValidationPipe } from '@swap/service-kit';
import { FakeServices, REGISTRY_SNAPSHOT } from '../testing/gateway-doubles';
import { testCatalogSigning } from '@swap/testing';

/*
 * A swap body through swap-gateway's validation pipe, the chain-bound rules included
 * (the chains read from the chain catalog quote-builder publishes, on an in-process bus): every
 * problem of the body is answered at once, field rules and per-network rules alike.
 */

const HUB_USDC = '0x29219dd400f2Bf60E5a23d13Be72B486D4038894';
const USER = '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';
const BAD_CHECKSUM = '0x4fc1a3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';

describe('swap bodies: every problem at once', () => {
  let services: FakeServices;
  let validate: (body: unknown, metatype: new () => object) => Promise<unknown>;

  beforeEach(() => {
    services = new FakeServices().answer(Subjects.catalogSnapshot, () => testCatalogSigning.sign(REGISTRY_SNAPSHOT));
    const pipe = createValidationPipe({ chainRules: testCatalogSigning.mirror(services.messaging) });
    validate = async (body, metatype) => pipe.transform(body, { type: 'body', metatype });
  });
  afterEach(() => services.close());

  const refusal = async (body: unknown, metatype: new () => object): Promise<ErrorBody> => {
    const error = await validate(body, metatype).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
    return error.toBody();
  };

  const quote = {
    tokenSrc: HUB_USDC,
    tokenSrcChainKey: 'sonic',
    tokenDst: 'So11111111111111111111111111111111111111112',
    tokenDstChainKey: 'solana',
    amount: '1000000',
    quoteType: 'exact_input',
  };

  it('a quote with amount as a JSON number, a bad-checksum address and an unknown token: three details, one answer', async () => {
    const answer = await refusal(
      {
        ...quote,
        amount: 1000000,
        srcAddress: BAD_CHECKSUM,
        tokenDst: '0x0000000000000000000000000000000000000001',
        tokenDstChainKey: 'arbitrum',
      },
      QuoteRequestDto,
    );
    expect(answer.details).toEqual([
      { field: 'amount', rule: 'isUint256String', message: 'amount must be a non-negative integer in a decimal string, at most 2^256 - 1' },
      {
        field: 'tokenDst',
        rule: 'knownToken',
        message: 'tokenDst 0x0000000000000000000000000000000000000001 is not a supported token on 0xa4b1.arbitrum',
      },
      {
        field: 'srcAddress',
        rule: 'evmAddress',
        message: 'srcAddress must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case)',
      },
    ]);
    expect(answer).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });

  it('an intent body: an unknown chain, a Solana address of the wrong form and a missing field, together', async () => {
    const answer = await refusal(
      {
        srcChainKey: 'nowhere',
        dstChainKey: 'solana',
        inputToken: HUB_USDC,
        outputToken: 'So11111111111111111111111111111111111111112',
        inputAmount: '1000000',
        minOutputAmount: '1',
        deadline: '0',
        srcAddress: USER,
        dstAddress: USER,
      },
      IntentRequestDto,
    );
    expect(answer.details).toEqual([
      { field: 'allowPartialFill', rule: 'isDefined', message: 'allowPartialFill is required' },
      { field: 'srcChainKey', rule: 'knownChain', message: 'srcChainKey: unknown chain key nowhere' },
      {
        field: 'outputToken',
        rule: 'knownToken',
        message: 'outputToken So11111111111111111111111111111111111111112 is not a supported token on solana',
      },
      { field: 'dstAddress', rule: 'solanaAddress', message: 'dstAddress must be a base58 public key (32 bytes) on Solana' },
    ]);
  });

  it('passes a valid body as its DTO; a field refused by its own rule is not reported twice', async () => {
    await expect(validate({ ...quote, tokenDst: HUB_USDC, tokenDstChainKey: '0xa4b1.arbitrum' }, QuoteRequestDto)).rejects.toMatchObject({
      details: [{ field: 'tokenDst', rule: 'knownToken' }],
    });
    const valid = { ...quote, tokenDstChainKey: 'sonic', tokenDst: HUB_USDC, srcAddress: USER };
    await expect(validate(valid, QuoteRequestDto)).resolves.toBeInstanceOf(QuoteRequestDto);
    const refused = await refusal({ ...valid, srcAddress: 42 }, QuoteRequestDto);
    expect(refused.details).toEqual([{ field: 'srcAddress', rule: 'isString', message: 'srcAddress must be a string' }]);
  });
});
