import { AppError, Subjects, type IntentPacketRequestDto, type IntentPacketResponse } from '@swap/contracts';
import { encodeReply } from '@swap/messaging';
import { FakeServices } from '../testing/gateway-doubles';
import type { SwapGatewayConfig } from '../swap-gateway.config';
import { RelayController } from './relay.controller';

/*
 * The relay routes hand their bodies to relay-tracker (a subscriber on an in-process bus).
 * The one rule of their own: a packet request that asks relay-tracker to wait `timeout` ms
 * for execution gets that long on the bus, on top of the usual RPC_TIMEOUT_MS. Time is
 * jest's fake clock; the bus's own hops (setImmediate) run for real.
 */

const RPC_TIMEOUT_MS = 5_000;
const PACKET: IntentPacketResponse = {
  srcChainId: 23,
  srcTxHash: `0x${'1'.repeat(64)}`,
  srcAddress: '0x348BE44F63A458be9C1b13D6fD8e99048F297Bc3',
  status: 'executed',
  dstChainId: 146,
  connSn: 7,
  dstAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  dstTxHash: `0x${'2'.repeat(64)}`,
  signatures: ['0xsig'],
  payload: '0xabcd',
};

describe('RelayController', () => {
  let services: FakeServices;
  let controller: RelayController;

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    services = new FakeServices();
    controller = new RelayController(services.messaging, { RPC_TIMEOUT_MS } as SwapGatewayConfig);
  });

  afterEach(async () => {
    await services.close();
    jest.useRealTimers();
  });

  /** relay-tracker answering the packet after `delayMs` of (fake) time. */
  const packetAfter = (delayMs: number) =>
    services.serve(Subjects.relayPacket, (_payload, respond) => void setTimeout(() => respond(encodeReply(PACKET)), delayMs));

  /** Settles `promise` while the fake clock runs `ms`, and answers how it settled. */
  async function settleWithin(promise: Promise<unknown>, ms: number): Promise<unknown> {
    const settled = promise.then(
      (value) => ({ answered: value }),
      (error: unknown) => ({ failed: error instanceof AppError ? error.toBody() : error }),
    );
    // Let the request reach the subscriber (a real setImmediate hop) before time moves.
    await new Promise((resolve) => setImmediate(resolve));
    await jest.advanceTimersByTimeAsync(ms);
    return settled;
  }

  it('gives relay-tracker the body’s wait on top of RPC_TIMEOUT_MS: with timeout 2000, a packet 6.9 s later still arrives', async () => {
    packetAfter(6_900);
    const body: IntentPacketRequestDto = { chainId: '23', txHash: `0x${'1'.repeat(64)}`, timeout: 2_000 };
    expect(await settleWithin(controller.packet(body), 7_000)).toEqual({ answered: PACKET });
    expect(services.received).toEqual([{ subject: Subjects.relayPacket, payload: body, timeoutMs: 7_000 }]);
  });

  it('without a timeout, RPC_TIMEOUT_MS alone: a packet 5.1 s later is a 504', async () => {
    packetAfter(5_100);
    const body: IntentPacketRequestDto = { chainId: '0xa4b1.arbitrum', fillTxHash: `0x${'3'.repeat(64)}` };
    expect(await settleWithin(controller.packet(body), 5_200)).toEqual({
      failed: { statusCode: 504, code: 'DEPENDENCY_TIMEOUT', message: 'An internal service did not answer in time; retry later' },
    });
    expect(services.received).toEqual([{ subject: Subjects.relayPacket, payload: body, timeoutMs: 5_000 }]);
  });

  it('hands extra-data and submit requests to relay-tracker as given, with the default bus timeout', async () => {
    services
      .answer(Subjects.relayExtraData, () => ({ address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', payload: '0xabcd' }))
      .answer(Subjects.relaySubmit, () => ({ result: { success: true } }));
    const extra = { txHash: `0x${'4'.repeat(64)}`, srcChainKey: '0xa4b1.arbitrum' };
    const submit = { chainId: '23', txHash: `0x${'5'.repeat(64)}` };
    const answers = [await controller.extraData(extra), await controller.submit(submit)];
    expect(answers).toEqual([{ address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', payload: '0xabcd' }, { result: { success: true } }]);
    expect(services.received).toEqual([
      { subject: Subjects.relayExtraData, payload: extra, timeoutMs: 1_000 },
      { subject: Subjects.relaySubmit, payload: submit, timeoutMs: 1_000 },
    ]);
  });
});
