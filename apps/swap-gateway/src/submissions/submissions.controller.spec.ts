import { MemoryCache, MemoryReadModelStore } from '@swap/cache';
import {
  AppError,
  Subjects,
  type Intent,
  type SubmissionStatusResponse,
  type SubmitTxMessage,
  SubmitTxRequestDto,
  type SubmitTxResponse,
} from '@swap/contracts';
import { createValidationPipe } from '@swap/service-kit';
import { KeySetCache } from '@swap/key-auth';
import { RequestContext, ServiceMetrics } from '@swap/observability';
import pino from 'pino';
import { FakeReply, FakeServices, fakeRequest, REGISTRY_SNAPSHOT } from '../testing/gateway-doubles';
import type { SwapGatewayConfig } from '../swap-gateway.config';
import { SubmissionsController } from './submissions.controller';
import { SUBMIT_ATTEMPTS, SubmitTx } from './submit-tx';
import { SubmitLimits } from './submit-limits';
import { testCatalogSigning } from '@swap/testing';

/*
 * submit-tx as swap-gateway handles it once the DTO has passed: the rules that depend on
 * the source network (read from the chain catalog quote-builder publishes), the canonical chain
 * key and the organisation handed to relay-tracker, and how the per-wallet count follows
 * relay-tracker's answer. quote-builder and relay-tracker are subscribers on an in-process
 * bus; the limits count in a memory cache.
 */

const USER = '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';
const SOL_USER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const SOL_SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

const INTENT: Intent = {
  intentId: '42',
  creator: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  inputToken: '0xdB7BdA65c3a1C51D64dC4444e418684677334109',
  outputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  inputAmount: '1000000',
  minOutputAmount: '1',
  deadline: '1763816400',
  allowPartialFill: false,
  srcChain: '23',
  dstChain: '146',
  srcAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  dstAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  solver: '0x0000000000000000000000000000000000000000',
  data: '0x',
};

const body = (over: Partial<SubmitTxRequestDto> = {}): SubmitTxRequestDto => ({
  txHash: hash(1),
  srcChainKey: 'arbitrum',
  walletAddress: USER,
  intent: INTENT,
  relayData: '0xabcd',
  ...over,
});
const solanaBody = (over: Partial<SubmitTxRequestDto> = {}) =>
  body({ txHash: SOL_SIGNATURE, srcChainKey: 'solana', walletAddress: SOL_USER, intent: { ...INTENT, srcChain: '1' }, ...over });

const STATUS: SubmissionStatusResponse = {
  success: true,
  data: {
    txHash: hash(1),
    srcChainKey: '0xa4b1.arbitrum',
    status: 'pending',
    processingAttempts: 0,
    history: [],
    intentHash: `0x${'9'.repeat(64)}`,
    createdAt: '2025-11-22T12:00:00.000Z',
    updatedAt: '2025-11-22T12:00:00.000Z',
    terminal: false,
  },
};

/** relay-tracker as the spec wants it: what submit answers, and which swaps it already tracks. */
interface RelayTracker {
  submitAnswer: (message: SubmitTxMessage) => SubmitTxResponse | Promise<SubmitTxResponse>;
  tracked: Set<string>;
}

function setup(limitPerWallet = 1, limitPerClient = 1_000) {
  const services = new FakeServices();
  const relayTracker: RelayTracker = {
    submitAnswer: () => ({ success: true, data: { status: 'inserted', message: 'Submission recorded' } }),
    tracked: new Set(),
  };
  services
    .answer(Subjects.catalogSnapshot, () => testCatalogSigning.sign(REGISTRY_SNAPSHOT))
    .answer(Subjects.submissionSubmit, (message) => relayTracker.submitAnswer(message))
    .answer(Subjects.submissionStatus, ({ txHash, srcChainKey }) => {
      if (!relayTracker.tracked.has(`${srcChainKey}/${txHash}`)) throw AppError.notFound('No submission of that transaction');
      return STATUS;
    });
  const logger = pino({ level: 'silent' });
  const keys = new KeySetCache({
    name: 'portal',
    source: { ordering: 'newer-only', pull: async () => undefined },
    refreshMs: 15_000,
    logger,
  });
  const config = {
    SUBMIT_LIMIT_PER_CLIENT: limitPerClient,
    SUBMIT_LIMIT_PER_WALLET: limitPerWallet,
    SUBMIT_LIMIT_WINDOW_MS: 60_000,
    // Each hand-over attempt waits half of it: 200 ms.
    RPC_TIMEOUT_MS: 400,
  } as SwapGatewayConfig;
  const limits = new SubmitLimits(
    new MemoryCache({ namespace: 'swap-gateway', now: () => 1_000_000 }),
    logger,
    keys,
    config,
    new ServiceMetrics('swap-gateway', { defaultMetrics: false }),
  );
  const readModels = new MemoryReadModelStore();
  const catalog = testCatalogSigning.mirror(services.messaging);
  const controller = new SubmissionsController(new SubmitTx(services.messaging, catalog, limits, readModels, config));
  // Bodies pass the service's validation pipe first, as on the route (the chain-bound rules included).
  const pipe = createValidationPipe({ chainRules: catalog });
  const submit = async (b: SubmitTxRequestDto, reply = new FakeReply()) =>
    controller.submit(
      (await pipe.transform(b, { type: 'body', metatype: SubmitTxRequestDto })) as SubmitTxRequestDto,
      fakeRequest('198.51.100.7'),
      reply.asFastify,
    );
  /** The status route's answer: the JSON text it sends, parsed. */
  const status = async (query: { txHash: string; srcChainKey: string }) => {
    const reply = new FakeReply();
    await controller.status(query, reply.asFastify);
    return { contentType: reply.getHeader('content-type'), body: JSON.parse(reply.body as string) as unknown };
  };
  return { services, relayTracker, controller, submit, status, readModels };
}

/** The AppError a promise rejects with, as its body. */
async function refusal(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error.toBody();
}

describe('SubmissionsController.submit', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => (s = setup()));
  afterEach(() => s.services.close());

  it('hands a valid submission to relay-tracker under the canonical chain key, with the organisation of the request’s key, and answers its reply', async () => {
    const reply = new FakeReply();
    const answer = await RequestContext.run({ requestId: 'req-1', orgId: 'org-7' }, () => s.submit(body(), reply));

    expect(answer).toEqual({ success: true, data: { status: 'inserted', message: 'Submission recorded' } });
    expect(s.services.payloadsOn(Subjects.submissionSubmit)).toStrictEqual([
      { txHash: hash(1), srcChainKey: '0xa4b1.arbitrum', walletAddress: USER, intent: INTENT, relayData: '0xabcd', orgId: 'org-7' },
    ]);
    // Under the limit relay-tracker is not asked whether it tracks the swap.
    expect(s.services.payloadsOn(Subjects.submissionStatus)).toEqual([]);
    expect(reply.headers).toEqual({
      'ratelimit-policy': '"client";q=1000;w=60, "wallet";q=1;w=60',
      ratelimit: '"client";r=999;t=60, "wallet";r=0;t=60',
    });
  });

  it('counts no request refused by validation against the client (an unknown chain, a hash of the wrong form): no limit headers, no 429 after', async () => {
    const strict = setup(1, 1);
    try {
      const replies = [new FakeReply(), new FakeReply(), new FakeReply()];
      const answers = [
        await refusal(strict.submit(body({ txHash: '0x1234' }), replies[0])),
        await refusal(strict.submit(body({ srcChainKey: 'nowhere' }), replies[1])),
        await refusal(strict.submit(body({ txHash: '0x1234' }), replies[2])),
      ];
      expect(answers.map((a) => (a as { statusCode: number }).statusCode)).toEqual([400, 400, 400]);
      expect(replies.map((r) => r.headers)).toEqual([{}, {}, {}]);
      // The client's one request of the window is still there for a valid submission.
      const reply = new FakeReply();
      expect(await strict.submit(body(), reply)).toEqual({ success: true, data: { status: 'inserted', message: 'Submission recorded' } });
      expect(reply.headers.ratelimit).toBe('"client";r=0;t=60, "wallet";r=0;t=60');
    } finally {
      strict.services.close();
    }
  });

  it('sends no orgId at all when the request has none (no key, or the swaps family is off)', async () => {
    await s.submit(body());
    await RequestContext.run({ requestId: 'req-2' }, () =>
      s.submit(body({ txHash: hash(2), walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })),
    );
    expect(s.services.payloadsOn(Subjects.submissionSubmit).map((p) => Object.keys(p as object).includes('orgId'))).toEqual([false, false]);
  });

  it('reports every rule of the source network at once, with the field rules, before relay-tracker hears of it or the wallet is counted', async () => {
    expect(
      await refusal(
        s.submit(
          body({
            txHash: '0x1234567890abcdef',
            walletAddress: 'not-an-address',
            intent: { ...INTENT, srcChain: '30', inputAmount: '1e6' },
            relayData: 'dead',
          }),
        ),
      ),
    ).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message:
        'intent.inputAmount must be a non-negative integer in a decimal string, at most 2^256 - 1; relayData must be the 0x-hex payload of the build response relayData; txHash must be 0x followed by 64 hex digits on an EVM network; walletAddress must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case); intent.srcChain must be 23, the relay chain id of 0xa4b1.arbitrum',
      details: [
        {
          field: 'intent.inputAmount',
          rule: 'isUint256String',
          message: 'intent.inputAmount must be a non-negative integer in a decimal string, at most 2^256 - 1',
        },
        { field: 'relayData', rule: 'matches', message: 'relayData must be the 0x-hex payload of the build response relayData' },
        { field: 'txHash', rule: 'evmTxHash', message: 'txHash must be 0x followed by 64 hex digits on an EVM network' },
        {
          field: 'walletAddress',
          rule: 'evmAddress',
          message: 'walletAddress must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case)',
        },
        {
          field: 'intent.srcChain',
          rule: 'matchesSrcChainKey',
          message: 'intent.srcChain must be 23, the relay chain id of 0xa4b1.arbitrum',
        },
      ],
    });
    // A mixed-case address with a broken EIP-55 checksum is refused too.
    expect(await refusal(s.submit(body({ walletAddress: '0x4fc1a3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5' })))).toMatchObject({
      details: [{ field: 'walletAddress', rule: 'evmAddress' }],
    });
    expect(s.services.payloadsOn(Subjects.submissionSubmit)).toEqual([]);
    expect(s.services.payloadsOn(Subjects.submissionStatus)).toEqual([]);
    // The wallet's one place (limit 1) is still free.
    await expect(s.submit(body())).resolves.toMatchObject({ data: { status: 'inserted' } });
  });

  it('checks a Solana submission by Solana’s rules: a base58 signature and key, and relay chain 1', async () => {
    expect(await refusal(s.submit(solanaBody({ txHash: hash(1), walletAddress: USER, intent: INTENT })))).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message:
        'txHash must be a base58 transaction signature on Solana; walletAddress must be a base58 public key (32 bytes) on Solana; intent.srcChain must be 1, the relay chain id of solana',
      details: [
        { field: 'txHash', rule: 'solanaSignature', message: 'txHash must be a base58 transaction signature on Solana' },
        { field: 'walletAddress', rule: 'solanaAddress', message: 'walletAddress must be a base58 public key (32 bytes) on Solana' },
        { field: 'intent.srcChain', rule: 'matchesSrcChainKey', message: 'intent.srcChain must be 1, the relay chain id of solana' },
      ],
    });
    await expect(s.submit(solanaBody())).resolves.toMatchObject({ data: { status: 'inserted' } });
    expect(s.services.payloadsOn(Subjects.submissionSubmit)).toEqual([
      expect.objectContaining({ txHash: SOL_SIGNATURE, srcChainKey: 'solana', walletAddress: SOL_USER }),
    ]);
  });

  it('answers an unknown chain key with a 400 naming the field, with the body’s other problems, asking relay-tracker nothing', async () => {
    expect(await refusal(s.submit(body({ srcChainKey: '0x1.nowhere', relayData: 'dead' })))).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'relayData must be the 0x-hex payload of the build response relayData; srcChainKey: unknown chain key 0x1.nowhere',
      details: [
        { field: 'relayData', rule: 'matches', message: 'relayData must be the 0x-hex payload of the build response relayData' },
        { field: 'srcChainKey', rule: 'knownChain', message: 'srcChainKey: unknown chain key 0x1.nowhere' },
      ],
    });
    expect(s.services.received.map((r) => r.subject)).toEqual([Subjects.catalogSnapshot]);
  });

  it('counts an EVM wallet in any letter case as one wallet, a Solana key as written', async () => {
    await s.submit(body({ walletAddress: USER }));
    expect(await refusal(s.submit(body({ txHash: hash(2), walletAddress: USER.toLowerCase() })))).toMatchObject({
      statusCode: 429,
      message: expect.stringMatching(/^Too many new submissions from this walletAddress/),
    });

    // Base58 is case-sensitive: a key in other letters is another wallet.
    const key = 'AnCCJjheynmGqPp6Vgat9DTirGKD4CtQzP8cwTYV8qKH';
    const otherCase = 'ANCCJjheynmGqPp6Vgat9DTirGKD4CtQzP8cwTYV8qKH';
    await s.submit(solanaBody({ walletAddress: key }));
    await expect(s.submit(solanaBody({ txHash: SOL_SIGNATURE.replace('5V', '4V'), walletAddress: otherCase }))).resolves.toMatchObject({
      data: { status: 'inserted' },
    });
    expect(await refusal(s.submit(solanaBody({ txHash: SOL_SIGNATURE.replace('5V', '3V'), walletAddress: key })))).toMatchObject({
      statusCode: 429,
    });
  });

  it('gives the wallet’s count back when relay-tracker answers duplicate', async () => {
    s.relayTracker.submitAnswer = () => ({ success: true, data: { status: 'duplicate', message: 'Already submitted' } });
    await expect(s.submit(body())).resolves.toEqual({ success: true, data: { status: 'duplicate', message: 'Already submitted' } });
    s.relayTracker.submitAnswer = () => ({ success: true, data: { status: 'inserted', message: 'Submission recorded' } });
    await expect(s.submit(body({ txHash: hash(2) }))).resolves.toMatchObject({ data: { status: 'inserted' } });
  });

  describe('a submit whose answer was lost (a relay-tracker replica died answering, the bus timed out)', () => {
    /** relay-tracker's answers in turn: 'lost' never answers (the replica died), else the reply or error given. */
    const answersInTurn = (...answers: ('lost' | 'inserted' | 'duplicate' | AppError)[]) => {
      s.relayTracker.submitAnswer = () => {
        const next = answers.shift() ?? 'inserted';
        if (next === 'lost') return new Promise<never>(() => undefined);
        if (next instanceof AppError) throw next;
        return { success: true, data: { status: next, message: next === 'inserted' ? 'Submission recorded' : 'Already submitted' } };
      };
    };
    const handedOver = () => s.services.payloadsOn(Subjects.submissionSubmit).length;

    it('is handed over again, and the retry’s duplicate (this swap, stored by the dead replica) is answered and counted once against the wallet', async () => {
      answersInTurn('lost', 'duplicate');
      await expect(s.submit(body())).resolves.toEqual({ success: true, data: { status: 'duplicate', message: 'Already submitted' } });
      expect(handedOver()).toBe(2);
      // The wallet's one submission a window is this swap: another one is refused, not handed over.
      answersInTurn('inserted');
      expect(await refusal(s.submit(body({ txHash: hash(2) })))).toMatchObject({ statusCode: 429 });
      expect(handedOver()).toBe(2);
    });

    it(`gives up after ${SUBMIT_ATTEMPTS} lost answers with the bus timeout (504), the wallet's count given back`, async () => {
      answersInTurn('lost', 'lost', 'lost');
      expect(await refusal(s.submit(body()))).toMatchObject({ statusCode: 504, code: 'DEPENDENCY_TIMEOUT' });
      expect(handedOver()).toBe(SUBMIT_ATTEMPTS);
      answersInTurn('inserted');
      await expect(s.submit(body({ txHash: hash(2) }))).resolves.toMatchObject({ data: { status: 'inserted' } });
    });

    it('is not handed over again when relay-tracker answered, even with a refusal', async () => {
      answersInTurn(AppError.validation([{ field: 'intent', rule: 'matchesChain', message: 'intent does not match the chain' }]));
      expect(await refusal(s.submit(body()))).toMatchObject({ statusCode: 400 });
      expect(handedOver()).toBe(1);
    });
  });

  it('past the wallet limit, lets a swap relay-tracker already tracks through and refuses a new one without handing it over', async () => {
    await s.submit(body({ txHash: hash(1) }));
    s.relayTracker.tracked.add(`0xa4b1.arbitrum/${hash(1)}`);

    expect(await refusal(s.submit(body({ txHash: hash(2) })))).toEqual({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      message: 'Too many new submissions from this walletAddress: at most 1 every 60 s; retry after 60 s',
    });
    s.relayTracker.submitAnswer = () => ({ success: true, data: { status: 'duplicate', message: 'Already submitted' } });
    await expect(s.submit(body({ txHash: hash(1), srcChainKey: '0xA4B1.Arbitrum' }))).resolves.toMatchObject({
      data: { status: 'duplicate' },
    });

    // relay-tracker was asked about each over-limit swap under the canonical key, and handed only the tracked one.
    expect(s.services.payloadsOn(Subjects.submissionStatus)).toEqual([
      { txHash: hash(2), srcChainKey: '0xa4b1.arbitrum' },
      { txHash: hash(1), srcChainKey: '0xa4b1.arbitrum' },
    ]);
    expect(s.services.payloadsOn(Subjects.submissionSubmit).map((p) => (p as SubmitTxMessage).txHash)).toEqual([hash(1), hash(1)]);
  });

  it('gives the count back when relay-tracker fails, and passes its error on as it was', async () => {
    s.relayTracker.submitAnswer = () => {
      throw new AppError(503, 'DEPENDENCY_UNAVAILABLE', 'The database is unavailable; retry later');
    };
    expect(await refusal(s.submit(body()))).toEqual({
      statusCode: 503,
      code: 'DEPENDENCY_UNAVAILABLE',
      message: 'The database is unavailable; retry later',
    });
    s.relayTracker.submitAnswer = () => ({ success: true, data: { status: 'inserted', message: 'Submission recorded' } });
    await expect(s.submit(body())).resolves.toMatchObject({ data: { status: 'inserted' } });
  });
});

describe('SubmissionsController.status', () => {
  it('on a read-model miss asks relay-tracker under the canonical chain key and answers its reply as it is; a 404 passes', async () => {
    const { services, relayTracker, status } = setup();
    relayTracker.tracked.add(`0xa4b1.arbitrum/${hash(1)}`);
    await expect(status({ txHash: hash(1), srcChainKey: 'ARBITRUM' })).resolves.toEqual({
      contentType: 'application/json; charset=utf-8',
      body: STATUS,
    });
    expect(services.payloadsOn(Subjects.submissionStatus)).toEqual([{ txHash: hash(1), srcChainKey: '0xa4b1.arbitrum' }]);
    expect(await refusal(status({ txHash: hash(2), srcChainKey: '0xa4b1.arbitrum' }))).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'No submission of that transaction',
    });
    await services.close();
  });

  it('answers from the read model without asking relay-tracker, an EVM hash in any letter case, under the canonical key', async () => {
    const { services, status, readModels } = setup();
    const kept = { ...STATUS, data: { ...STATUS.data, status: 'relaying' } };
    await readModels.put(`submission-status:0xa4b1.arbitrum:${hash(1)}`, 3, JSON.stringify(kept), 60_000);
    await expect(status({ txHash: hash(1).toUpperCase().replace('0X', '0x'), srcChainKey: 'arbitrum' })).resolves.toEqual({
      contentType: 'application/json; charset=utf-8',
      body: kept,
    });
    expect(services.payloadsOn(Subjects.submissionStatus)).toEqual([]);
    await services.close();
  });

  it('keeps no miss: a submission written to the read model after a 404 is answered at once', async () => {
    const { status, readModels } = setup();
    await expect(refusal(status({ txHash: hash(3), srcChainKey: '0xa4b1.arbitrum' }))).resolves.toMatchObject({ statusCode: 404 });
    await readModels.put(`submission-status:0xa4b1.arbitrum:${hash(3)}`, 1, JSON.stringify(STATUS), 60_000);
    await expect(status({ txHash: hash(3), srcChainKey: '0xa4b1.arbitrum' })).resolves.toMatchObject({ body: STATUS });
  });
});
