import {
  HUB_WALLET_FACTORY_ABI,
  INTENTS_ABI,
  INTENT_TUPLE,
  SPOKE_ABI,
  intentHash,
  intentValues,
  loadChainDirectory,
  type ChainDirectory,
} from '@swap/chains';
import {
  generateKeyPair,
  getAddressEncoder,
  getAddressFromPublicKey,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  signTransaction,
  verifySignature,
} from '@solana/kit';
import type { BuildResponse as AnyBuildResponse, EvmTx, IntentRequest, SolanaTx } from '@swap/contracts';

/** The EVM form of the build response (these tests build from EVM chains). */
type BuildResponse = AnyBuildResponse & { tx: EvmTx };
import { eventually, jsonOf } from '@swap/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  decodeAbiParameters,
  decodeEventLog,
  decodeFunctionData,
  defineChain,
  erc20Abi,
  http,
  parseAbi,
  toHex,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startBuildServices, type BuildServices } from './build-services';
import { DEV_KEYS, startDevnet, type Devnet } from '../../../tools/devnet/src/devnet';

jest.setTimeout(90_000);

const TEST_TOKEN_ABI = parseAbi(['function mint(address to, uint256 amount)']);

const HUB_CALLS = [
  {
    type: 'tuple[]',
    components: [
      { name: 'target', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
  },
] as const;

describe('unsigned transactions on the devnet, signed and sent', () => {
  let devnet: Devnet;
  let dataDir: string;
  let directory: ChainDirectory;
  let builders: BuildServices | undefined;
  let gateway: string;
  const user = privateKeyToAccount(DEV_KEYS[1]); // demo wallet 1
  const feeReceiver = '0x000000000000000000000000000000000000fee5' as Address;

  const clients = new Map<string, { read: PublicClient; send: (tx: EvmTx) => Promise<Hex> }>();
  const chain = (key: string) => clients.get(key)!;
  const token = (key: string, symbol: string) => directory.tokensOf(key).find((t) => t.symbol === symbol)!.address as Address;
  const post = async <T>(path: string, body: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${gateway}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await jsonOf(res)) as T };
  };
  const deadline = async () => (await jsonOf(await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=300`))).deadline as string;
  const request = async (over: Partial<IntentRequest>): Promise<IntentRequest> => ({
    srcChainKey: '0x92.sonic',
    dstChainKey: '0xa4b1.arbitrum',
    inputToken: token('0x92.sonic', 'USDC'),
    outputToken: token('0xa4b1.arbitrum', 'USDC'),
    inputAmount: '2500000',
    minOutputAmount: '2400000',
    deadline: await deadline(),
    allowPartialFill: false,
    srcAddress: user.address,
    dstAddress: user.address,
    solver: '0x0000000000000000000000000000000000000000',
    data: '0x',
    ...over,
  });
  /** As the hub wallet a relayed deposit reaches: funded with the input, it creates the intent (anvil impersonation). */
  const openOnHub = async (intent: AnyBuildResponse['intent']) => {
    const hub = directory.hub;
    const url = hub.rpcUrls![0];
    const wallet = intent.creator as Address;
    const rpc = (method: string, params: unknown[]) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
    await rpc('anvil_impersonateAccount', [wallet]);
    await rpc('anvil_setBalance', [wallet, '0x56bc75e2d63100000']);
    const as = createWalletClient({ transport: http(url), account: wallet });
    const amount = BigInt(intent.inputAmount);
    const input = intent.inputToken as Address;
    const intents = hub.contracts!.intents as Address;
    const mined = async (hash: Hex) => expect((await chain(hub.key).read.waitForTransactionReceipt({ hash })).status).toBe('success');
    await mined(await as.writeContract({ address: input, abi: TEST_TOKEN_ABI, functionName: 'mint', args: [wallet, amount], chain: null }));
    await mined(await as.writeContract({ address: input, abi: erc20Abi, functionName: 'approve', args: [intents, amount], chain: null }));
    await mined(
      await as.writeContract({
        address: intents,
        abi: INTENTS_ABI,
        functionName: 'createIntent',
        args: [intentValues(intent)],
        chain: null,
      }),
    );
    await rpc('anvil_stopImpersonatingAccount', [wallet]);
  };
  const sendAndWait = async (key: string, tx: EvmTx) => {
    const hash = await chain(key).send(tx);
    const receipt = await chain(key).read.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return receipt;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'devnet-e2e-'));
    devnet = await startDevnet({ dataDir, basePort: 0 });
    directory = loadChainDirectory(devnet.profilePath);
    for (const c of directory.chains.filter((x) => x.type === 'EVM')) {
      const viemChain = defineChain({
        id: c.chainId as number,
        name: c.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: c.rpcUrls! } },
      });
      const read = createPublicClient({ chain: viemChain, transport: http(c.rpcUrls![0]), pollingInterval: 100 });
      const wallet = createWalletClient({ chain: viemChain, transport: http(c.rpcUrls![0]), account: user });
      // The user signs the bytes the service built, as any Ethereum client would.
      const send = (tx: EvmTx) => {
        expect(tx.from.toLowerCase()).toBe(user.address.toLowerCase());
        return wallet.sendTransaction({
          to: tx.to as Address,
          data: tx.data as Hex,
          value: BigInt(tx.value),
          account: user,
          chain: viemChain,
        });
      };
      clients.set(c.key, { read, send });
    }
    builders = await startBuildServices({ CHAIN_PROFILE: devnet.profilePath });
    gateway = builders.gateway;
  });

  afterAll(async () => {
    await builders?.stop();
    await devnet?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("gives a deadline: the hub's latest block time plus the offset", async () => {
    const block = await chain('0x92.sonic').read.getBlock();
    const value = BigInt(await deadline());
    expect(value).toBeGreaterThanOrEqual(block.timestamp + 300n);
    expect(value).toBeLessThan(block.timestamp + 310n);
    expect((await fetch(`${gateway}/v1/swaps/deadline?offsetSeconds=0`)).status).toBe(400);
  });

  it('on the hub: allowance false, approve sent, allowance true, then createIntent lands with the returned intent', async () => {
    const body = await request({});
    const before = await post<{ valid: boolean; spender: string }>('/v1/swaps/allowance/check', body);
    expect(before.body).toMatchObject({ valid: false, approvalRequired: true });
    expect(before.body.spender.toLowerCase()).toBe(directory.hub.contracts!.intents!.toLowerCase());
    const approve = await post<{ tx: EvmTx }>('/v1/swaps/approve', body);
    await sendAndWait('0x92.sonic', approve.body.tx);
    expect((await post<{ valid: boolean }>('/v1/swaps/allowance/check', body)).body.valid).toBe(true);

    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.status).toBe(200);
    expect(built.body.tx).toMatchObject({ to: directory.hub.contracts!.intents, value: '0' });
    expect(built.body.intent).toMatchObject({ creator: user.address, inputAmount: '2500000', srcChain: '146', dstChain: '23', data: '0x' });
    expect(built.body.relayData.payload).toBe(built.body.tx.data);
    const receipt = await sendAndWait('0x92.sonic', built.body.tx);
    const event = decodeEventLog({
      abi: INTENTS_ABI,
      ...receipt.logs.find((l) => l.address.toLowerCase() === directory.hub.contracts!.intents!.toLowerCase())!,
    });
    expect(event.eventName).toBe('IntentCreated');
    expect((event.args as { intentHash: Hex }).intentHash).toBe(intentHash(built.body.intent));
    const viaRoute = await post<{ hash: string }>('/v1/swaps/intents/hash', { intent: built.body.intent });
    expect(viaRoute.body.hash).toBe(intentHash(built.body.intent));

    // The open intent can be cancelled by its creator.
    const cancel = await post<{ tx: EvmTx }>('/v1/swaps/intents/cancel', { srcChainKey: '0x92.sonic', intent: built.body.intent });
    const cancelled = await sendAndWait('0x92.sonic', cancel.body.tx);
    const cancelEvent = decodeEventLog({ abi: INTENTS_ABI, ...cancelled.logs[cancelled.logs.length - 1] });
    expect(cancelEvent).toMatchObject({ eventName: 'IntentCancelled', args: { intentHash: intentHash(built.body.intent) } });
  });

  it('on the hub with a partner fee: the user deposits the amount, the intent carries amount less fee, the receiver is paid', async () => {
    const body = await request({ inputAmount: '1000000', partnerFee: { address: feeReceiver, percentage: 100 } });
    await sendAndWait('0x92.sonic', (await post<{ tx: EvmTx }>('/v1/swaps/approve', body)).body.tx);
    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.body.intent.inputAmount).toBe('990000');
    const [fee, receiver] = decodeAbiParameters([{ type: 'uint256' }, { type: 'address' }], `0x${built.body.intent.data.slice(4)}`);
    expect(built.body.intent.data.slice(0, 4)).toBe('0x01');
    expect([fee, receiver.toLowerCase()]).toEqual([10_000n, feeReceiver]);
    await sendAndWait('0x92.sonic', built.body.tx);
    expect(
      await chain('0x92.sonic').read.readContract({
        address: token('0x92.sonic', 'USDC'),
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [feeReceiver],
      }),
    ).toBe(10_000n);
    // The fee read agrees.
    const quoted = await jsonOf(await fetch(`${gateway}/v1/swaps/fees/partner?amount=1000000&feeAddress=${feeReceiver}&feePercentage=100`));
    expect(quoted).toMatchObject({ fee: '10000', inputAmount: '990000' });
  });

  it('from a spoke with native ETH: value is the amount, and the message to the hub carries the intent', async () => {
    const body = await request({
      srcChainKey: '0xa4b1.arbitrum',
      dstChainKey: '0x2105.base',
      inputToken: '0x0000000000000000000000000000000000000000',
      outputToken: token('0x2105.base', 'USDC'),
      inputAmount: '50000000000000000',
    });
    expect((await post<{ approvalRequired: boolean }>('/v1/swaps/approve', body)).body).toMatchObject({
      approvalRequired: false,
      tx: null,
    });
    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.status).toBe(200);
    const spoke = directory.findChain('0xa4b1.arbitrum')!;
    expect(built.body.tx).toMatchObject({ to: spoke.assetManager, value: '50000000000000000' });
    const hubWallet = await chain('0x92.sonic').read.readContract({
      address: directory.hub.contracts!.hubWalletFactory as Address,
      abi: HUB_WALLET_FACTORY_ABI,
      functionName: 'getDeployedAddress',
      args: [23n, user.address.toLowerCase() as Hex],
    });
    expect(built.body.intent).toMatchObject({ creator: hubWallet, srcChain: '23', dstChain: '30' });
    expect(built.body.intent.inputToken.toLowerCase()).toBe(
      directory.findToken(spoke.key, '0x0000000000000000000000000000000000000000')!.hubAsset.toLowerCase(),
    );
    const receipt = await sendAndWait('0xa4b1.arbitrum', built.body.tx);
    const message = receipt.logs
      .map((l) => {
        try {
          return decodeEventLog({ abi: SPOKE_ABI, ...l });
        } catch {
          return undefined;
        }
      })
      .find((e) => e?.eventName === 'Message')!;
    const [, , to, amount, calls] = decodeAbiParameters(
      [{ type: 'address' }, { type: 'address' }, { type: 'bytes' }, { type: 'uint256' }, { type: 'bytes' }],
      (message.args as { payload: Hex }).payload,
    );
    expect([to.toLowerCase(), amount]).toEqual([hubWallet.toLowerCase(), 50_000_000_000_000_000n]);
    expect(calls).toBe(built.body.relayData.payload);
    const [hubCalls] = decodeAbiParameters(HUB_CALLS, calls);
    const create = decodeFunctionData({ abi: INTENTS_ABI, data: hubCalls[1].data });
    expect(create.functionName).toBe('createIntent');
    const { keccak256, encodeAbiParameters } = await import('viem');
    expect(keccak256(encodeAbiParameters([INTENT_TUPLE], [create.args[0] as never]))).toBe(intentHash(built.body.intent));
  });

  it('from a spoke with an ERC-20: approve, deposit, the relayer opens the intent on the hub; the cancel through the connection refunds the input on the spoke', async () => {
    const body = await request({
      srcChainKey: '0x2105.base',
      dstChainKey: '0x92.sonic',
      inputToken: token('0x2105.base', 'WETH'),
      outputToken: token('0x92.sonic', 'USDC'),
      inputAmount: '10000000000000000',
      partnerFee: { address: feeReceiver, amount: '1000000000000000' },
    });
    const check = await post<{ valid: boolean; spender: string }>('/v1/swaps/allowance/check', body);
    expect(check.body.valid).toBe(false);
    expect(check.body.spender.toLowerCase()).toBe(directory.findChain('0x2105.base')!.assetManager!.toLowerCase());
    await sendAndWait('0x2105.base', (await post<{ tx: EvmTx }>('/v1/swaps/approve', body)).body.tx);
    expect((await post<{ valid: boolean }>('/v1/swaps/allowance/check', body)).body.valid).toBe(true);
    const built = await post<BuildResponse>('/v1/swaps/intents', body);
    expect(built.body.intent.inputAmount).toBe('9000000000000000');
    expect(built.body.tx.value).toBe('0');
    const weth = token('0x2105.base', 'WETH');
    const balance = () =>
      chain('0x2105.base').read.readContract({ address: weth, abi: erc20Abi, functionName: 'balanceOf', args: [user.address] });
    const before = await balance();
    await sendAndWait('0x2105.base', built.body.tx);
    const state = () =>
      chain('0x92.sonic').read.readContract({
        address: directory.hub.contracts!.intents as Address,
        abi: INTENTS_ABI,
        functionName: 'intentStates',
        args: [intentHash(built.body.intent) as Hex],
      });
    await eventually(async () => (await state())[0], 15_000, 100);

    const cancel = await post<{ tx: EvmTx }>('/v1/swaps/intents/cancel', { srcChainKey: '0x2105.base', intent: built.body.intent });
    expect(cancel.body.tx.to).toBe(directory.findChain('0x2105.base')!.connection);
    const sent = await sendAndWait('0x2105.base', cancel.body.tx);
    expect(decodeEventLog({ abi: SPOKE_ABI, ...sent.logs[0] }).eventName).toBe('Message');
    // Cancelled on the hub, then the refund comes back to Base: all but the partner fee.
    await eventually(async () => !(await state())[0], 15_000, 100);
    await eventually(async () => (await balance()) === before - 1_000_000_000_000_000n, 15_000, 100);
  });

  it('from Solana: a base64 transaction paid by the user, its signature slot empty, a recent blockhash; the user signs it', async () => {
    const keyPair = await generateKeyPair();
    const solUser = await getAddressFromPublicKey(keyPair.publicKey);
    const body = await request({
      srcChainKey: 'solana',
      dstChainKey: '0x92.sonic',
      inputToken: '11111111111111111111111111111111',
      outputToken: token('0x92.sonic', 'USDC'),
      inputAmount: '1500000000',
      srcAddress: solUser,
      dstAddress: user.address,
    });
    const built = await post<AnyBuildResponse & { tx: SolanaTx }>('/v1/swaps/intents', body);
    expect(built.status).toBe(200);
    const program = directory.findChain('solana')!.assetManager!;
    expect(built.body.tx).toMatchObject({ from: solUser, to: program, encoding: 'base64' });
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(built.body.tx.data));
    expect(Object.entries(transaction.signatures)).toEqual([[solUser, null]]); // the fee payer's slot, empty
    // A legacy/v0 message (the builder makes v0): accounts, lifetime and instructions.
    const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes) as unknown as {
      staticAccounts: string[];
      lifetimeToken: string;
      instructions: { programAddressIndex: number; accountIndices?: number[]; data?: Uint8Array }[];
    };
    expect(message.staticAccounts[0]).toBe(solUser); // the fee payer
    expect(message.lifetimeToken).toBe(built.body.tx.recentBlockhash);
    // Two ComputeBudget instructions (1 400 000 units, no priority fee), then the asset manager's Anchor `transfer`.
    expect(message.instructions).toHaveLength(3);
    const budget = message.instructions
      .slice(0, 2)
      .map((ix) => [message.staticAccounts[ix.programAddressIndex], Buffer.from(ix.data!).toString('hex')]);
    expect(budget).toEqual([
      ['ComputeBudget111111111111111111111111111111', '02c05c1500'],
      ['ComputeBudget111111111111111111111111111111', '030000000000000000'],
    ]);
    const instruction = message.instructions[2];
    expect(message.staticAccounts[instruction.programAddressIndex]).toBe(program);
    const accounts = instruction.accountIndices!.map((i) => message.staticAccounts[i]);
    expect(accounts).toHaveLength(11);
    expect(accounts[0]).toBe(solUser);
    expect(accounts[1]).toBe('11111111111111111111111111111111'); // the system program
    expect(accounts[3]).not.toBe(program); // native SOL: the native vault is there…
    expect([accounts[4], accounts[5], accounts[7]]).toEqual([program, program, program]); // …token vault, token account and mint absent
    expect(accounts[8]).toBe(directory.findChain('solana')!.connection);
    const { keccak256 } = await import('viem');
    // transfer(amount u64, to bytes, data bytes): the chain holds keccak256 of the hub calls (relayData.payload).
    const data = Buffer.from(instruction.data!);
    expect(data.subarray(0, 8)).toEqual(Buffer.from([163, 52, 200, 231, 140, 3, 69, 186]));
    const hubWallet = await chain('0x92.sonic').read.readContract({
      address: directory.hub.contracts!.hubWalletFactory as Address,
      abi: HUB_WALLET_FACTORY_ABI,
      functionName: 'getDeployedAddress',
      args: [1n, toHex(getAddressEncoder().encode(solUser) as Uint8Array)],
    });
    expect(built.body.intent).toMatchObject({
      creator: hubWallet,
      srcChain: '1',
      dstChain: '146',
      srcAddress: toHex(getAddressEncoder().encode(solUser) as Uint8Array),
    });
    expect(data.readBigUInt64LE(8)).toBe(1_500_000_000n);
    expect(data.readUInt32LE(16)).toBe(20);
    expect(`0x${data.subarray(20, 40).toString('hex')}`).toBe(hubWallet.toLowerCase());
    expect(data.readUInt32LE(40)).toBe(32);
    expect(`0x${data.subarray(44).toString('hex')}`).toBe(keccak256(built.body.relayData.payload as Hex));
    // The user signs it, and the signature verifies against the message.
    const signed = await signTransaction([keyPair], transaction);
    expect(await verifySignature(keyPair.publicKey, signed.signatures[solUser]!, signed.messageBytes)).toBe(true);
    expect((await post('/v1/swaps/intents', { ...body, inputAmount: (2n ** 64n).toString() })).status).toBe(400);
  });

  it('builds from every chain the token list names, each network in its own unsigned form: intents, limit orders, hash, gas, allowance, approve and the cancel of an open intent', async () => {
    // A sender of each network's own kind (the devnet's RPC doubles answer any well-formed one).
    const senders: Record<string, string> = {
      EVM: user.address,
      SOLANA: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      SUI: `0x${'7e'.repeat(32)}`,
      STELLAR: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
      INJECTIVE: 'inj1dg6tm62uup53wn2kn97caeqfwt0sukx3qjk8rw',
      ICON: 'hx9d8a8376e7db9f00478feb9a46f44f0d051aab57',
    };
    const encodings: Record<string, string | undefined> = {
      SOLANA: 'base64',
      SUI: 'base64',
      STELLAR: 'xdr',
      INJECTIVE: 'json',
      ICON: 'json',
    };
    const units: Record<string, string> = { SOLANA: 'lamports', SUI: 'mist', STELLAR: 'stroops', INJECTIVE: 'inj', ICON: 'loop' };
    const listed = (await jsonOf(await fetch(`${gateway}/v1/swaps/tokens`))) as Record<string, { address: string }[]>;
    const spokes = Object.keys(listed).filter((key) => key !== directory.hub.key);
    expect(spokes.map((key) => directory.getChain(key).type).sort()).toEqual(
      expect.arrayContaining(['EVM', 'ICON', 'INJECTIVE', 'SOLANA', 'STELLAR', 'SUI']),
    );
    for (const key of spokes) {
      const type = directory.getChain(key).type;
      const sender = senders[type];
      const body = await request({
        srcChainKey: key,
        dstChainKey: '0x92.sonic',
        inputToken: listed[key][0].address,
        outputToken: token('0x92.sonic', 'USDC'),
        inputAmount: '1000000',
        minOutputAmount: '1',
        srcAddress: sender,
        dstAddress: user.address,
      });
      const built = await post<AnyBuildResponse & { message?: string }>('/v1/swaps/intents', body);
      expect({ key, status: built.status, message: built.body.message }).toEqual({ key, status: 200, message: undefined });
      expect({ key, encoding: (built.body.tx as { encoding?: string }).encoding }).toEqual({ key, encoding: encodings[type] });
      expect(built.body.intent).toMatchObject({
        srcChain: directory.getChain(key).relayChainId,
        dstChain: '146',
        inputAmount: expect.any(String),
      });
      const hash = await post<{ hash: string }>('/v1/swaps/intents/hash', { intent: built.body.intent });
      expect({ key, hash: hash.body.hash }).toEqual({ key, hash: intentHash(built.body.intent as never) });
      const { deadline: _deadline, ...unexpiring } = body;
      const limit = await post<AnyBuildResponse>('/v1/swaps/limit-orders', unexpiring);
      expect({ key, status: limit.status, deadline: limit.body.intent?.deadline }).toEqual({ key, status: 200, deadline: '0' });
      const allowance = await post<{ valid: boolean }>('/v1/swaps/allowance/check', body);
      expect({ key, status: allowance.status }).toEqual({ key, status: 200 });
      if (type === 'EVM') continue;
      expect({ key, valid: allowance.body.valid }).toEqual({ key, valid: true });
      const approve = await post<{ details: { field: string; rule: string }[] }>('/v1/swaps/approve', body);
      expect({ key, status: approve.status, rule: approve.body.details?.[0]?.rule }).toEqual({ key, status: 400, rule: 'hasAllowances' });
      const gas = await post<{ unit: string; fee: string }>('/v1/swaps/gas/estimate', { chainKey: key, tx: built.body.tx });
      expect({ key, status: gas.status, unit: gas.body.unit }).toEqual({ key, status: 200, unit: units[type] });
      // Another sender's name on it: not the transaction built for them.
      const forged = await post<{ details: { field: string }[] }>('/v1/swaps/gas/estimate', {
        chainKey: key,
        tx: { ...built.body.tx, from: 'someone-else' },
      });
      expect({ key, status: forged.status, field: forged.body.details?.[0]?.field }).toEqual({ key, status: 400, field: 'tx.from' });

      // The cancel: its intent opened on the hub by its hub wallet (as the relayed deposit would), then cancelled from the network.
      const unopened = await post<{ code: string }>('/v1/swaps/intents/cancel', { srcChainKey: key, intent: built.body.intent });
      expect({ key, status: unopened.status, code: unopened.body.code }).toEqual({ key, status: 409, code: 'INTENT_NOT_OPEN' });
      await openOnHub(built.body.intent);
      const cancel = await post<{ tx: { from: string; encoding?: string }; relayData?: { address: string } }>('/v1/swaps/intents/cancel', {
        srcChainKey: key,
        intent: built.body.intent,
      });
      expect({ key, status: cancel.status, from: cancel.body.tx?.from, encoding: cancel.body.tx?.encoding }).toEqual({
        key,
        status: 200,
        from: built.body.tx.from,
        encoding: encodings[type],
      });
      expect(cancel.body.relayData?.address).toBe(built.body.intent.creator);
    }
  });

  it('refuses malformed requests, naming the field', async () => {
    const good = await request({});
    const cases: [Partial<IntentRequest>, string][] = [
      [{ srcChainKey: 'nowhere' }, 'srcChainKey: unknown chain key nowhere'],
      [
        { inputToken: '0x000000000000000000000000000000000000dEaD' },
        'inputToken 0x000000000000000000000000000000000000dEaD is not a supported token on 0x92.sonic',
      ],
      [{ inputAmount: '0' }, 'inputAmount must be greater than zero'],
      [{ inputAmount: '1.5' }, 'inputAmount must be a non-negative integer in a decimal string, at most 2^256 - 1'],
      [{ deadline: '1000' }, 'deadline must be after'],
      [{ srcAddress: 'not-an-address' }, 'srcAddress must be a 20-byte hex address on an EVM network'],
      [
        { dstChainKey: '0x92.sonic', outputToken: good.inputToken },
        'outputToken must differ from inputToken when both are on the same chain',
      ],
      [{ partnerFee: { address: feeReceiver, percentage: 101 } }, 'partnerFee.percentage must not be greater than 100'],
      [{ partnerFee: { address: 'nope', percentage: 10 } }, 'partnerFee.address must be a 20-byte hex address'],
      [{ partnerFee: { address: feeReceiver, amount: good.inputAmount } }, 'partnerFee must be less than the input amount'],
      [{ partnerFee: { address: feeReceiver, amount: '0' } }, 'partnerFee.amount must be greater than zero'],
      [{ partnerFee: { address: feeReceiver, percentage: 10 }, data: '0xdead' }, 'data must be 0x when a partnerFee is given'],
      [{ data: `0x01${'00'.repeat(64)}` }, 'data must not start with 0x01'],
      [
        { inputToken: '0x0000000000000000000000000000000000000000' },
        'inputToken 0x0000000000000000000000000000000000000000 is not a supported token on 0x92.sonic',
      ],
      [
        { srcAddress: 'nope', dstAddress: 'nope' },
        'srcAddress must be a 20-byte hex address on an EVM network (EIP-55 checksummed if mixed case); dstAddress must be a 20-byte hex address on an EVM network',
      ],
    ];
    for (const [over, message] of cases) {
      const res = await post<{ message: string }>('/v1/swaps/intents', { ...good, ...over });
      expect({ over, status: res.status }).toEqual({ over, status: 400 });
      expect(res.body.message).toContain(message);
    }
    // The same body rules hold for allowance and approve.
    const native = await post<{ message: string }>('/v1/swaps/approve', {
      ...good,
      inputToken: '0x0000000000000000000000000000000000000000',
    });
    expect(native.status).toBe(400);
    const badAddress = await post<{ message: string }>('/v1/swaps/allowance/check', { ...good, srcAddress: 'nope' });
    expect(badAddress.body.message).toContain('srcAddress must be a 20-byte hex address');
  });
});
