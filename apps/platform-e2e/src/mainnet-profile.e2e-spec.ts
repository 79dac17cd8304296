import {
  HUB_WALLET_FACTORY_ABI,
  INTENTS_ABI,
  SPOKE_ABI,
  decodeHubCalls,
  intentFromTuple,
  intentHash,
  loadChainDirectory,
  type ChainDirectory,
} from '@swap/chains';
import type {
  AllowanceCheckResponse,
  ApproveResponse,
  BuildResponse as AnyBuildResponse,
  EvmTx,
  Intent,
  IntentRequest,
  Token,
} from '@swap/contracts';
import type { IntentInput } from '@swap/client';
import { jsonOf } from '@swap/testing';
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  decodeFunctionData,
  defineChain,
  encodeAbiParameters,
  erc20Abi,
  getAddress,
  http,
  keccak256,
  pad,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startBuildServices, type BuildServices } from './build-services';
import { DEV_KEYS } from '../../../tools/devnet/src/devnet';
import { startMainnetStandIn, type MainnetStandIn } from '../../../tools/devnet/src/mainnet-standin';

/** The EVM form of the build response. */
type BuildResponse = AnyBuildResponse & { tx: EvmTx };

jest.setTimeout(60_000);

const HUB = '0x92.sonic';
const ARBITRUM = '0xa4b1.arbitrum';
/** protocol-facts.md, "Hub contracts on mainnet": what the built-in profile must carry. */
const MAINNET_INTENTS = '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef';
const MAINNET_HUB_WALLET_FACTORY = '0xA0ed3047D358648F2C0583B415CffCA571FDB544';
const ZERO = '0x0000000000000000000000000000000000000000';
const same = (a: string, b: string) => expect(a.toLowerCase()).toBe(b.toLowerCase());

/**
 * The built-in `mainnet` chain profile, with a deployment's RPC endpoints (CHAIN_RPC_URLS)
 * pointing at local anvil nodes that carry the real chain ids and the devnet's contracts at
 * the mainnet addresses: quote-builder and swap-gateway build real unsigned transactions
 * against the mainnet contract addresses, and the hub stand-in runs one of them.
 */
describe('the mainnet profile, against local stand-ins of the mainnet RPC endpoints', () => {
  let standIn: MainnetStandIn;
  /** The profile exactly as built in (no RPC endpoints): what the services must answer from. */
  const mainnet: ChainDirectory = loadChainDirectory('mainnet');
  let builders: BuildServices | undefined;
  let gateway: string;
  const user = privateKeyToAccount(DEV_KEYS[1]);
  const clients = new Map<string, { read: PublicClient; send: (tx: EvmTx) => Promise<TransactionReceipt> }>();
  const chain = (key: string) => clients.get(key)!;
  const token = (key: string, symbol: string) => mainnet.tokensOf(key).find((t) => t.symbol === symbol)!.address;
  const hubAsset = (key: string, symbol: string) => mainnet.findToken(key, token(key, symbol))!.hubAsset;

  const get = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${gateway}${path}`);
    return { status: res.status, body: (await jsonOf(res)) as T };
  };
  const post = async <T>(path: string, body: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${gateway}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await jsonOf(res)) as T };
  };
  // The public client's shapes: /deadline without an offset (300 s), intents without solver and data.
  const deadline = async () => (await get<{ deadline: string }>('/v1/swaps/deadline')).body.deadline;
  const request = async (over: Partial<IntentRequest>): Promise<IntentInput> => ({
    srcChainKey: HUB,
    dstChainKey: ARBITRUM,
    inputToken: token(HUB, 'USDC'),
    outputToken: token(ARBITRUM, 'USDC'),
    inputAmount: '2500000',
    minOutputAmount: '2400000',
    deadline: await deadline(),
    allowPartialFill: false,
    srcAddress: user.address,
    dstAddress: user.address,
    ...over,
  });
  /** The decoded call's intent is the response's intent, field for field (hash included). */
  const expectSameIntent = (decoded: unknown, intent: Intent) => {
    const onChain = intentFromTuple(decoded as Parameters<typeof intentFromTuple>[0]);
    expect(intentHash(onChain)).toBe(intentHash(intent));
    for (const field of ['creator', 'inputToken', 'outputToken', 'srcAddress', 'dstAddress', 'solver', 'data'] as const)
      same(onChain[field], intent[field]);
    expect({ ...onChain, creator: '', inputToken: '', outputToken: '', srcAddress: '', dstAddress: '', solver: '', data: '' }).toEqual({
      ...intent,
      creator: '',
      inputToken: '',
      outputToken: '',
      srcAddress: '',
      dstAddress: '',
      solver: '',
      data: '',
    });
  };

  beforeAll(async () => {
    standIn = await startMainnetStandIn({
      spokes: [ARBITRUM],
      tokens: { [HUB]: ['USDC', 'WETH', 'wS'], [ARBITRUM]: ['ETH', 'USDC', 'WBTC'] },
      fund: [user.address],
    });
    for (const key of [HUB, ARBITRUM]) {
      const info = mainnet.findChain(key)!;
      const url = standIn.rpcUrls[key];
      const viemChain = defineChain({
        id: info.chainId as number,
        name: info.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      });
      const read = createPublicClient({ chain: viemChain, transport: http(url), pollingInterval: 50 });
      const wallet = createWalletClient({ chain: viemChain, transport: http(url), account: user });
      // The user signs the bytes the service built, as any Ethereum client would.
      const send = async (tx: EvmTx) => {
        same(tx.from, user.address);
        const hash = await wallet.sendTransaction({
          to: tx.to as Address,
          data: tx.data as Hex,
          value: BigInt(tx.value),
          account: user,
          chain: viemChain,
        });
        return read.waitForTransactionReceipt({ hash });
      };
      clients.set(key, { read, send });
    }
    builders = await startBuildServices({ CHAIN_PROFILE: 'mainnet', CHAIN_RPC_URLS: standIn.chainRpcUrlsSetting });
    gateway = builders.gateway;
  });

  afterAll(async () => {
    await builders?.stop();
    await standIn?.close();
  });

  it('stands in with the real chain ids and the devnet code at the mainnet addresses', async () => {
    expect(standIn.chainRpcUrlsSetting).toBe(`${HUB}=${standIn.rpcUrls[HUB]},${ARBITRUM}=${standIn.rpcUrls[ARBITRUM]}`);
    expect(await chain(HUB).read.getChainId()).toBe(146);
    expect(await chain(ARBITRUM).read.getChainId()).toBe(42161);
    expect(mainnet.hub.contracts).toMatchObject({ intents: MAINNET_INTENTS, hubWalletFactory: MAINNET_HUB_WALLET_FACTORY });
    const arbitrum = mainnet.findChain(ARBITRUM)!;
    for (const [key, address] of [
      [HUB, MAINNET_INTENTS],
      [HUB, MAINNET_HUB_WALLET_FACTORY],
      [ARBITRUM, arbitrum.assetManager!],
      [ARBITRUM, arbitrum.connection!],
      [ARBITRUM, token(ARBITRUM, 'USDC')],
      [HUB, hubAsset(ARBITRUM, 'USDC')],
    ] as const) {
      expect({ key, address, code: ((await chain(key).read.getCode({ address: address as Address })) ?? '0x').length > 2 }).toEqual({
        key,
        address,
        code: true,
      });
    }
    const usdc = await chain(ARBITRUM).read.readContract({
      address: token(ARBITRUM, 'USDC') as Address,
      abi: erc20Abi,
      functionName: 'decimals',
    });
    expect(usdc).toBe(6);
  });

  it('lists the mainnet tokens of the hub and of Arbitrum', async () => {
    for (const key of [HUB, ARBITRUM]) {
      const res = await get<Token[]>(`/v1/swaps/tokens/${key}`);
      expect(res.status).toBe(200);
      const expected = mainnet.profile.tokens.filter((t) => t.chainKey === key);
      expect(res.body.map((t) => [t.symbol, t.address, t.decimals, t.chainKey])).toEqual(
        expected.map((t) => [t.symbol, t.address, t.decimals, key]),
      );
    }
    expect((await get<Token[]>(`/v1/swaps/tokens/${HUB}`)).body.find((t) => t.symbol === 'USDC')!.address).toBe(
      '0x29219dd400f2Bf60E5a23d13Be72B486D4038894',
    );
    expect((await get<Token[]>(`/v1/swaps/tokens/${ARBITRUM}`)).body.find((t) => t.symbol === 'USDC')!.address).toBe(
      '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    );
  });

  it("answers the deadline as the stand-in hub's latest block time plus the offset", async () => {
    const before = (await chain(HUB).read.getBlock()).timestamp;
    const value = BigInt(await deadline());
    const after = (await chain(HUB).read.getBlock()).timestamp;
    // The hub mines a block a second; the service keeps its reading for at most a second.
    expect(value).toBeGreaterThanOrEqual(before + 300n - 2n);
    expect(value).toBeLessThanOrEqual(after + 300n);
  });

  let hubIntent: Intent;

  it('from the hub: allowance, approve, then createIntent to the mainnet intents contract, which runs on the stand-in', async () => {
    const body = await request({});
    const before = await post<AllowanceCheckResponse>('/v1/swaps/allowance/check', body);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ valid: false, approvalRequired: true, amount: '2500000' });
    same(before.body.spender!, MAINNET_INTENTS);
    const approve = await post<ApproveResponse>('/v1/swaps/approve', body);
    expect(approve.status).toBe(200);
    same(approve.body.tx!.to, token(HUB, 'USDC'));
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.body.tx!.data as Hex })).toMatchObject({
      functionName: 'approve',
      args: [getAddress(MAINNET_INTENTS), 2_500_000n],
    });
    expect((await chain(HUB).send(approve.body.tx!)).status).toBe('success');
    expect((await post<AllowanceCheckResponse>('/v1/swaps/allowance/check', body)).body.valid).toBe(true);

    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.status).toBe(200);
    expect(built.body.tx).toMatchObject({ to: MAINNET_INTENTS, value: '0' });
    expect(built.body.intent).toMatchObject({
      creator: user.address,
      inputAmount: '2500000',
      minOutputAmount: '2400000',
      srcChain: '146',
      dstChain: '23',
      solver: ZERO,
      data: '0x',
      deadline: body.deadline,
    });
    same(built.body.intent.inputToken, token(HUB, 'USDC'));
    same(built.body.intent.outputToken, hubAsset(ARBITRUM, 'USDC'));
    same(built.body.intent.srcAddress, user.address);
    const call = decodeFunctionData({ abi: INTENTS_ABI, data: built.body.tx.data as Hex });
    expect(call.functionName).toBe('createIntent');
    expectSameIntent(call.args[0], built.body.intent);
    expect(built.body.relayData.payload).toBe(built.body.tx.data);

    // Signed and sent on the hub stand-in: the code at the mainnet address takes the input and opens the intent.
    const receipt = await chain(HUB).send(built.body.tx);
    expect(receipt.status).toBe('success');
    same(receipt.to!, MAINNET_INTENTS);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === MAINNET_INTENTS.toLowerCase())!;
    const event = decodeEventLog({ abi: INTENTS_ABI, data: log.data, topics: log.topics });
    expect(event.eventName).toBe('IntentCreated');
    expect((event.args as { intentHash: Hex }).intentHash).toBe(intentHash(built.body.intent));
    expect(
      await chain(HUB).read.readContract({
        address: token(HUB, 'USDC') as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [MAINNET_INTENTS],
      }),
    ).toBe(2_500_000n);
    hubIntent = built.body.intent;
  });

  it('cancels the hub intent through the mainnet intents contract', async () => {
    const cancel = await post<{ tx: EvmTx }>('/v1/swaps/intents/cancel', { srcChainKey: HUB, intent: hubIntent });
    expect(cancel.status).toBe(200);
    expect(cancel.body.tx).toMatchObject({ to: MAINNET_INTENTS, value: '0' });
    const call = decodeFunctionData({ abi: INTENTS_ABI, data: cancel.body.tx.data as Hex });
    expect(call.functionName).toBe('cancelIntent');
    expectSameIntent(call.args[0], hubIntent);
    const receipt = await chain(HUB).send(cancel.body.tx);
    const log = receipt.logs.find((l) => l.address.toLowerCase() === MAINNET_INTENTS.toLowerCase())!;
    expect(decodeEventLog({ abi: INTENTS_ABI, data: log.data, topics: log.topics })).toMatchObject({
      eventName: 'IntentCancelled',
      args: { intentHash: intentHash(hubIntent) },
    });
  });

  it("from Arbitrum: approve to the asset manager, then the asset manager's transfer to the user's hub wallet, with the hub calls", async () => {
    const arbitrum = mainnet.findChain(ARBITRUM)!;
    const body = await request({
      srcChainKey: ARBITRUM,
      dstChainKey: HUB,
      inputToken: token(ARBITRUM, 'USDC'),
      outputToken: token(HUB, 'USDC'),
      inputAmount: '7000000',
      minOutputAmount: '6900000',
    });
    const check = await post<AllowanceCheckResponse>('/v1/swaps/allowance/check', body);
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ valid: false, approvalRequired: true });
    same(check.body.spender!, arbitrum.assetManager!);
    const approve = await post<ApproveResponse>('/v1/swaps/approve', body);
    expect(approve.status).toBe(200);
    same(approve.body.tx!.to, token(ARBITRUM, 'USDC'));
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.body.tx!.data as Hex }).args).toEqual([
      getAddress(arbitrum.assetManager!),
      7_000_000n,
    ]);
    expect((await chain(ARBITRUM).send(approve.body.tx!)).status).toBe('success');
    expect((await post<AllowanceCheckResponse>('/v1/swaps/allowance/check', body)).body.valid).toBe(true);

    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.status).toBe(200);
    expect(built.body.tx).toMatchObject({ to: arbitrum.assetManager, value: '0' });
    // The creator is the user's hub wallet, as the factory at the mainnet address derives it.
    const hubWallet = await chain(HUB).read.readContract({
      address: MAINNET_HUB_WALLET_FACTORY,
      abi: HUB_WALLET_FACTORY_ABI,
      functionName: 'getDeployedAddress',
      args: [23n, user.address.toLowerCase() as Hex],
    });
    expect(built.body.intent).toMatchObject({
      creator: hubWallet,
      inputAmount: '7000000',
      minOutputAmount: '6900000',
      srcChain: '23',
      dstChain: '146',
      solver: ZERO,
      data: '0x',
    });
    same(built.body.intent.inputToken, hubAsset(ARBITRUM, 'USDC'));
    same(built.body.intent.outputToken, token(HUB, 'USDC'));
    const transfer = decodeFunctionData({ abi: SPOKE_ABI, data: built.body.tx.data as Hex });
    expect(transfer.functionName).toBe('transfer');
    const [tokenArg, to, amount, hubCallBytes] = transfer.args as readonly [Address, Hex, bigint, Hex];
    same(tokenArg, token(ARBITRUM, 'USDC'));
    same(to, hubWallet);
    expect(amount).toBe(7_000_000n);
    expect(hubCallBytes).toBe(built.body.relayData.payload);
    // The hub calls: approve the hub asset to the mainnet intents contract, then createIntent.
    const [approveCall, createCall] = decodeHubCalls(hubCallBytes);
    same(approveCall.target, hubAsset(ARBITRUM, 'USDC'));
    expect(decodeFunctionData({ abi: erc20Abi, data: approveCall.data }).args).toEqual([getAddress(MAINNET_INTENTS), 7_000_000n]);
    same(createCall.target, MAINNET_INTENTS);
    const create = decodeFunctionData({ abi: INTENTS_ABI, data: createCall.data });
    expect(create.functionName).toBe('createIntent');
    expectSameIntent(create.args[0], built.body.intent);

    // Signed and sent on the Arbitrum stand-in: the asset manager takes the deposit and its connection emits the message.
    const receipt = await chain(ARBITRUM).send(built.body.tx);
    expect(receipt.status).toBe('success');
    const message = receipt.logs
      .filter((l) => l.address.toLowerCase() === arbitrum.connection!.toLowerCase())
      .map((l) => decodeEventLog({ abi: SPOKE_ABI, data: l.data, topics: l.topics }));
    expect(message.map((m) => m.eventName)).toEqual(['Message']);

    // No relay runs here: the intent never reached the hub, so there is nothing to cancel yet.
    const early = await post<{ code: string; details: unknown }>('/v1/swaps/intents/cancel', {
      srcChainKey: ARBITRUM,
      intent: built.body.intent,
    });
    const hash = intentHash(built.body.intent as Intent);
    expect(early).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 'INTENT_NOT_OPEN', details: { state: 'unknown', intentHash: hash } }),
    });
    // Standing in for the relay: the intent open on the hub (intentStates, slot 0 of the intents contract: exists = true).
    await chain(HUB).read.request({
      method: 'anvil_setStorageAt' as never,
      params: [
        MAINNET_INTENTS,
        keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [hash, 0n])),
        pad('0x01'),
      ] as never,
    });

    // The cancel from Arbitrum: a message through the mainnet connection asking the hub wallet to cancel.
    const cancel = await post<{ tx: EvmTx }>('/v1/swaps/intents/cancel', { srcChainKey: ARBITRUM, intent: built.body.intent });
    expect(cancel.status).toBe(200);
    expect(cancel.body.tx).toMatchObject({ to: arbitrum.connection, value: '0' });
    const send = decodeFunctionData({ abi: SPOKE_ABI, data: cancel.body.tx.data as Hex });
    expect(send.functionName).toBe('sendMessage');
    const [dstChainId, dstAddress, payload] = send.args as readonly [bigint, Hex, Hex];
    expect(dstChainId).toBe(146n);
    // To the user's hub wallet, which runs the calls (the public client's callWallet); the
    // mainnet profile names no hub asset manager, so the one call is the cancel.
    same(dstAddress, hubWallet);
    const calls = decodeHubCalls(payload);
    expect(calls).toHaveLength(1);
    same(calls[0].target, MAINNET_INTENTS);
    const cancelCall = decodeFunctionData({ abi: INTENTS_ABI, data: calls[0].data });
    expect(cancelCall.functionName).toBe('cancelIntent');
    expectSameIntent(cancelCall.args[0], built.body.intent);
  });

  it('from Arbitrum with native ETH: value is the amount, no approval needed', async () => {
    const body = await request({
      srcChainKey: ARBITRUM,
      dstChainKey: HUB,
      inputToken: ZERO,
      outputToken: token(HUB, 'WETH'),
      inputAmount: '50000000000000000',
      minOutputAmount: '49000000000000000',
    });
    expect((await post<ApproveResponse>('/v1/swaps/approve', body)).body).toMatchObject({ approvalRequired: false, tx: null });
    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.status).toBe(200);
    expect(built.body.tx).toMatchObject({ to: mainnet.findChain(ARBITRUM)!.assetManager, value: '50000000000000000' });
    same(built.body.intent.inputToken, hubAsset(ARBITRUM, 'ETH'));
    expect((await chain(ARBITRUM).send(built.body.tx)).status).toBe('success');
  });
});
