import {
  AppError,
  Subjects,
  type CancelRequestDto,
  type GasEstimateRequestDto,
  type Intent,
  type IntentHashRequestDto,
  type IntentRequestDto,
  type IntentStatusRequestDto,
  type LimitOrderRequestDto,
} from '@swap/contracts';
import { FakeReply, FakeServices } from '../testing/gateway-doubles';
import { IntentsController } from './intents.controller';

/*
 * The build routes hand their bodies to quote-builder (a subscriber on an in-process bus
 * here) and shape nothing but what the spec says: the build answers go out as quote-builder
 * wrote them, the status and hash routes forward only the field they are about.
 */

const USER = '0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5';

const INTENT_REQUEST: IntentRequestDto = {
  srcChainKey: '0x92.sonic',
  dstChainKey: '0xa4b1.arbitrum',
  inputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  outputToken: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  inputAmount: '1000000',
  minOutputAmount: '995000',
  deadline: '1763816400',
  allowPartialFill: false,
  srcAddress: USER,
  dstAddress: USER,
  solver: '0x0000000000000000000000000000000000000000',
  data: '0x',
};

const INTENT: Intent = {
  intentId: '42',
  creator: USER,
  inputToken: '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
  outputToken: '0xdB7BdA65c3a1C51D64dC4444e418684677334109',
  inputAmount: '1000000',
  minOutputAmount: '995000000000000000',
  deadline: '1763816400',
  allowPartialFill: false,
  srcChain: '146',
  dstChain: '23',
  srcAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  dstAddress: '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5',
  solver: '0x0000000000000000000000000000000000000000',
  data: '0x',
};

/**
 * A build answer as quote-builder writes it: a number no double holds and the key order
 * of the writer, so a parse and re-serialisation on the way would show.
 */
const BUILD_JSON =
  '{"tx":{"from":"0x4fc1A3B9c2F4A1B8D1e5e6F7a8B9C0d1E2F3A4B5","to":"0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef","value":"0","data":"0x016f02e3"},"marker":123456789012345678901234567890}';

describe('IntentsController', () => {
  let services: FakeServices;
  let controller: IntentsController;
  beforeEach(() => {
    services = new FakeServices();
    controller = new IntentsController(services.messaging);
  });
  afterEach(() => services.close());

  it('sends the intent build as quote-builder wrote it, byte for byte, as JSON', async () => {
    services.answerJsonText(Subjects.intentBuild, BUILD_JSON);
    const reply = new FakeReply();
    await controller.build(INTENT_REQUEST, reply.asFastify);
    expect({ body: reply.body, headers: reply.headers }).toEqual({
      body: BUILD_JSON,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(services.payloadsOn(Subjects.intentBuild)).toEqual([INTENT_REQUEST]);
  });

  it('sends a limit order build the same way, on its own subject, the body without a deadline', async () => {
    services.answerJsonText(Subjects.limitOrderBuild, BUILD_JSON);
    const { deadline: _none, ...limitOrder } = INTENT_REQUEST;
    const reply = new FakeReply();
    await controller.limitOrder(limitOrder as LimitOrderRequestDto, reply.asFastify);
    expect(reply.body).toBe(BUILD_JSON);
    expect(services.payloadsOn(Subjects.limitOrderBuild)).toEqual([limitOrder]);
  });

  it('passes quote-builder’s refusal on as the same error and sends nothing', async () => {
    services.answer(Subjects.intentBuild, () => {
      throw new AppError(503, 'CHAIN_UNAVAILABLE', '0x92.sonic could not be read; retry later');
    });
    const reply = new FakeReply();
    const error = (await controller.build(INTENT_REQUEST, reply.asFastify).catch((e: unknown) => e)) as AppError;
    expect(error.toBody()).toEqual({ statusCode: 503, code: 'CHAIN_UNAVAILABLE', message: '0x92.sonic could not be read; retry later' });
    expect(reply.body).toBeUndefined();
  });

  it('forwards only intentTxHash to the solver status, and only the intent to the hash', async () => {
    services.answer(Subjects.intentSolverStatus, () => ({
      status: 3,
      intentHash: `0x${'9'.repeat(64)}`,
      fillTxHash: `0x${'8'.repeat(64)}`,
    }));
    services.answer(Subjects.intentHash, () => ({ hash: `0x${'7'.repeat(64)}` }));
    const status = await controller.intentStatus({ intentTxHash: `0x${'1'.repeat(64)}`, extra: 'dropped' } as IntentStatusRequestDto);
    const hashed = await controller.hash({ intent: INTENT, extra: 'dropped' } as IntentHashRequestDto);
    expect({ status, hashed }).toEqual({
      status: { status: 3, intentHash: `0x${'9'.repeat(64)}`, fillTxHash: `0x${'8'.repeat(64)}` },
      hashed: { hash: `0x${'7'.repeat(64)}` },
    });
    expect(services.received.map(({ subject, payload }) => ({ subject, payload }))).toEqual([
      { subject: Subjects.intentSolverStatus, payload: { intentTxHash: `0x${'1'.repeat(64)}` } },
      { subject: Subjects.intentHash, payload: { intent: INTENT } },
    ]);
  });

  it('hands gas estimates, allowance checks, approvals and cancels to quote-builder as given, each on its subject, with the default bus timeout', async () => {
    const gas: GasEstimateRequestDto = {
      chainKey: '0x92.sonic',
      tx: { from: USER, to: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef', value: '0', data: '0x016f02e3' },
    };
    const cancel: CancelRequestDto = { srcChainKey: '0x92.sonic', intent: INTENT };
    services
      .answer(Subjects.gasEstimate, () => ({
        chainKey: '0x92.sonic',
        gas: '21000',
        price: '1000000000',
        fee: '21000000000000',
        unit: 'wei',
      }))
      .answer(Subjects.allowanceCheck, () => ({
        valid: true,
        approvalRequired: true,
        spender: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef',
        allowance: '1000000',
        amount: '1000000',
      }))
      .answer(Subjects.approveBuild, () => ({ approvalRequired: false, tx: null, message: 'The native token needs no approval' }))
      .answer(Subjects.intentCancel, () => ({
        tx: { from: USER, to: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef', value: '0', data: '0xca25d319', chainId: 42161 },
      }));

    const answers = [
      await controller.gasEstimate(gas),
      await controller.allowance(INTENT_REQUEST),
      await controller.approve(INTENT_REQUEST),
      await controller.cancel(cancel),
    ];

    expect(answers).toEqual([
      { chainKey: '0x92.sonic', gas: '21000', price: '1000000000', fee: '21000000000000', unit: 'wei' },
      {
        valid: true,
        approvalRequired: true,
        spender: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef',
        allowance: '1000000',
        amount: '1000000',
      },
      { approvalRequired: false, tx: null, message: 'The native token needs no approval' },
      { tx: { from: USER, to: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef', value: '0', data: '0xca25d319', chainId: 42161 } },
    ]);
    expect(services.received).toEqual([
      { subject: Subjects.gasEstimate, payload: gas, timeoutMs: 1_000 },
      { subject: Subjects.allowanceCheck, payload: INTENT_REQUEST, timeoutMs: 1_000 },
      { subject: Subjects.approveBuild, payload: INTENT_REQUEST, timeoutMs: 1_000 },
      { subject: Subjects.intentCancel, payload: cancel, timeoutMs: 1_000 },
    ]);
  });
});
