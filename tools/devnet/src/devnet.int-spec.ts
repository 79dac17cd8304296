import {
  ChainAccess,
  encodeApprove,
  encodeAssetManagerTransfer,
  encodeCreateIntent,
  encodeHubCalls,
  HUB_WALLET_FACTORY_ABI,
  INTENTS_ABI,
  intentHash,
  intentValues,
  loadChainDirectory,
  SPOKE_ABI,
  type ChainDirectory,
  type RelayPacket,
} from '@swap/chains';
import type { Intent } from '@swap/contracts';
import { eventually } from '@swap/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  http,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS, SOLVER_KEYS, startDevnet, type Devnet } from './devnet';

describe('the devnet', () => {
  let devnet: Devnet;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'devnet-'));
    devnet = await startDevnet({ dataDir, basePort: 0 });
  }, 60_000);

  afterAll(async () => {
    await devnet?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the hub and two spokes with their real chain ids, the simulated networks beside them, and writes a valid profile', async () => {
    const directory = loadChainDirectory(devnet.profilePath);
    expect(directory.chains.map((c) => [c.key, c.chainId, c.relayChainId, c.hub])).toEqual([
      ['0x92.sonic', 146, '146', true],
      ['0xa4b1.arbitrum', 42161, '23', false],
      ['0x2105.base', 8453, '30', false],
      ['solana', 'solana', '1', false],
      ['sui', 'sui', '21', false],
      ['stellar', 'stellar', '27', false],
      ['injective-1', 'injective-1', '19', false],
      ['0x1.icon', '0x1.icon', '1768124270', false],
    ]);
    for (const chain of directory.chains.filter((c) => c.type === 'EVM')) {
      const client = createPublicClient({ transport: http(chain.rpcUrls![0]) });
      expect(await client.getChainId()).toBe(chain.chainId);
    }
    expect(directory.hub.contracts?.intents).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(directory.findChain('0xa4b1.arbitrum')?.assetManager).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // Two leveraged-yield vaults over the hub's own WETH and USDC, each borrowing the other.
    const hubToken = (symbol: string) => directory.tokensOf('0x92.sonic').find((t) => t.symbol === symbol)!.address;
    expect(directory.leverageVaults.map((v) => [v.name, v.asset, v.borrowToken, v.lsdSource?.fallbackAprPct])).toEqual([
      ['lsodaWETH', hubToken('WETH'), hubToken('USDC'), 3.1],
      ['lsodaUSDC', hubToken('USDC'), hubToken('WETH'), undefined],
    ]);
  });

  it('every simulated network builds a deposit through its adapter against its RPC double, under the mainnet contracts', async () => {
    const directory = loadChainDirectory(devnet.profilePath);
    const mainnet = loadChainDirectory('mainnet');
    const users: Record<string, string> = {
      solana: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      sui: `0x${'7e'.repeat(32)}`,
      stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
      'injective-1': 'inj1dg6tm62uup53wn2kn97caeqfwt0sukx3qjk8rw',
      '0x1.icon': 'hx9d8a8376e7db9f00478feb9a46f44f0d051aab57',
    };
    const access = new ChainAccess({ timeoutMs: 5_000 });
    for (const chain of directory.chains.filter((c) => c.type !== 'EVM')) {
      expect({ key: chain.key, name: chain.name, assetManager: chain.assetManager }).toEqual({
        key: chain.key,
        name: expect.stringContaining('(devnet: simulated RPC)'),
        assetManager: mainnet.getChain(chain.key).assetManager,
      });
      const [token] = directory.tokensOf(chain.key);
      expect(directory.findToken(chain.key, token.address)?.hubAsset).toMatch(/^0x[0-9a-fA-F]{40}$/);
      const tx = await access.spoke(chain, (a) =>
        a.buildDeposit({ user: users[chain.key], token: token.address, to: `0x${'11'.repeat(20)}`, amount: 1_000n, data: '0x1234' }),
      );
      expect(tx).toMatchObject({ from: users[chain.key], encoding: expect.stringMatching(/^(base64|xdr|json)$/) });
    }
  });

  it('serves recent Solana blockhashes from its RPC stand-in, through the real RPC client', async () => {
    const { createSolanaRpc } = await import('@solana/kit');
    const solana = loadChainDirectory(devnet.profilePath).findChain('solana')!;
    const { value } = await createSolanaRpc(solana.rpcUrls![0]).getLatestBlockhash().send();
    expect(value.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(value.lastValidBlockHeight).toBeGreaterThan(0n);
  });

  it('funds the demo wallets with test tokens on every chain', async () => {
    const directory = loadChainDirectory(devnet.profilePath);
    const demo = devnet.accounts[1].address;
    for (const chain of directory.chains.filter((c) => c.type === 'EVM')) {
      const client = createPublicClient({ transport: http(chain.rpcUrls![0]) });
      const usdc = directory.tokensOf(chain.key).find((t) => t.symbol === 'USDC')!;
      expect(
        await client.readContract({ address: usdc.address as `0x${string}`, abi: erc20Abi, functionName: 'balanceOf', args: [demo] }),
      ).toBe(1_000_000n * 10n ** 6n);
      expect(await client.getBalance({ address: demo })).toBeGreaterThan(0n);
    }
  });

  describe('its relayer (the relay network’s stand-in)', () => {
    let directory: ChainDirectory;
    const user = privateKeyToAccount(DEV_KEYS[2]);
    const clientOf = (key: string): PublicClient =>
      createPublicClient({ transport: http(directory.findChain(key)!.rpcUrls![0]), pollingInterval: 100 });
    const walletOf = (key: string, privateKey: Hex) => {
      const c = directory.findChain(key)!;
      const chain = defineChain({
        id: c.chainId as number,
        name: c.name,
        nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
        rpcUrls: { default: { http: c.rpcUrls! } },
      });
      return createWalletClient({ chain, transport: http(c.rpcUrls![0]), account: privateKeyToAccount(privateKey) });
    };
    const send = async (key: string, privateKey: Hex, to: Address, data: Hex, value = 0n) => {
      const hash = await walletOf(key, privateKey).sendTransaction({ to, data, value });
      expect((await clientOf(key).waitForTransactionReceipt({ hash })).status).toBe('success');
      return hash;
    };
    const relay = async (action: string, params: Record<string, string>) =>
      (await (await fetch(devnet.relayApiUrl, { method: 'POST', body: JSON.stringify({ action, params }) })).json()) as {
        success: boolean;
        data?: RelayPacket[];
      };
    const executed = (chainId: string, txHash: Hex) =>
      eventually(
        async () => {
          const packets = (await relay('get_transaction_packets', { chain_id: chainId, tx_hash: txHash })).data ?? [];
          return packets.length > 0 && packets.every((p) => p.status === 'executed') ? packets : undefined;
        },
        15_000,
        100,
      );
    let deposit: { intent: Intent; txHash: Hex };

    beforeAll(() => {
      directory = loadChainDirectory(devnet.profilePath);
    });

    it('carries a spoke deposit to the hub: the depositor’s own hub wallet is credited and runs the intent’s hub calls', async () => {
      const hub = directory.hub;
      const spoke = directory.findChain('0xa4b1.arbitrum')!;
      const usdc = directory.findToken(spoke.key, directory.tokensOf(spoke.key).find((t) => t.symbol === 'USDC')!.address)!;
      const wallet = await clientOf(hub.key).readContract({
        address: hub.contracts!.hubWalletFactory as Address,
        abi: HUB_WALLET_FACTORY_ABI,
        functionName: 'getDeployedAddress',
        args: [23n, user.address.toLowerCase() as Hex],
      });
      const intents = hub.contracts!.intents as Address;
      const intent: Intent = {
        intentId: '777',
        creator: wallet,
        inputToken: usdc.hubAsset,
        outputToken: directory.tokensOf(hub.key).find((t) => t.symbol === 'WETH')!.address,
        inputAmount: '5000000',
        minOutputAmount: '1',
        deadline: '0',
        allowPartialFill: false,
        srcChain: '23',
        dstChain: '146',
        srcAddress: user.address.toLowerCase(),
        dstAddress: user.address.toLowerCase(),
        solver: '0x0000000000000000000000000000000000000000',
        data: '0x',
      };
      const calls = encodeHubCalls([
        { target: usdc.hubAsset as Address, value: 0n, data: encodeApprove(intents, 5_000_000n) },
        { target: intents, value: 0n, data: encodeCreateIntent(intent) },
      ]);
      await send(spoke.key, DEV_KEYS[2], usdc.address as Address, encodeApprove(spoke.assetManager as Address, 5_000_000n));
      // `to` names someone else's wallet: it must not matter, the sender's own wallet is credited.
      const txHash = await send(
        spoke.key,
        DEV_KEYS[2],
        spoke.assetManager as Address,
        encodeAssetManagerTransfer(usdc.address as Address, '0x000000000000000000000000000000000000dead', 5_000_000n, calls),
      );
      expect((await relay('submit', { chain_id: '23', tx_hash: txHash })).success).toBe(true);
      const [packet] = await executed('23', txHash);
      expect(packet).toMatchObject({
        src_chain_id: '23',
        src_tx_hash: txHash,
        src_address: spoke.assetManager!.toLowerCase(),
        dst_chain_id: '146',
        conn_sn: expect.any(String),
        signatures: [],
      });
      const [exists, remaining] = await clientOf(hub.key).readContract({
        address: intents,
        abi: INTENTS_ABI,
        functionName: 'intentStates',
        args: [intentHash(intent)],
      });
      expect([exists, remaining]).toEqual([true, 5_000_000n]);
      deposit = { intent, txHash };
    });

    it('delivers each message once: a second delivery fails on the sequence guard', async () => {
      const [packet] = (await relay('get_transaction_packets', { chain_id: '23', tx_hash: deposit.txHash })).data!;
      const entry = directory.hub.contracts!.hubAssetManager as Address;
      const again = clientOf(directory.hub.key).simulateContract({
        account: privateKeyToAccount(DEV_KEYS[0]),
        address: entry,
        abi: parseAbi([
          'function recvMessage(uint256 srcChainId, address srcAddress, uint256 connSn, bytes payload)',
          'error MessageAlreadyProcessed()',
        ]),
        functionName: 'recvMessage',
        args: [23n, packet.src_address as Address, BigInt(packet.conn_sn), packet.payload as Hex],
      });
      await expect(again).rejects.toThrow(/MessageAlreadyProcessed/);
    });

    it('lets a message not from the asset manager act only on its sender’s own hub wallet', async () => {
      const spoke = directory.findChain('0xa4b1.arbitrum')!;
      const victimWallet = deposit.intent.creator as Address;
      const hubUsdc = deposit.intent.inputToken as Address;
      const before = await clientOf(directory.hub.key).readContract({
        address: hubUsdc,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [victimWallet],
      });
      // A stranger forges a deposit-shaped payload naming the victim as depositor.
      const forged = encodeAssetManagerTransfer(hubUsdc, victimWallet.toLowerCase() as Hex, 1n, '0x');
      const txHash = await send(spoke.key, DEV_KEYS[3], spoke.connection as Address, encodeSendMessageRaw(146n, forged));
      await executed('23', txHash);
      expect(
        await clientOf(directory.hub.key).readContract({
          address: hubUsdc,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [victimWallet],
        }),
      ).toBe(before);
    });

    it('releases a filled intent’s output on its destination spoke', async () => {
      const hub = directory.hub;
      const base = directory.findChain('0x2105.base')!;
      const baseUsdc = directory.tokensOf(base.key).find((t) => t.symbol === 'USDC')!;
      const outputHubAsset = directory.findToken(base.key, baseUsdc.address)!.hubAsset as Address;
      const intents = hub.contracts!.intents as Address;
      // A hub-source intent to Base: created on the hub, filled by a solver, delivered to Base.
      const hubWeth = directory.tokensOf(hub.key).find((t) => t.symbol === 'WETH')!.address as Address;
      const intent: Intent = {
        ...deposit.intent,
        intentId: '778',
        creator: user.address,
        inputToken: hubWeth,
        outputToken: outputHubAsset,
        inputAmount: '1000000000000000',
        dstChain: '30',
      };
      await send(hub.key, DEV_KEYS[2], hubWeth, encodeApprove(intents, 10n ** 15n));
      await send(hub.key, DEV_KEYS[2], intents, encodeCreateIntent(intent));
      const solver = privateKeyToAccount(SOLVER_KEYS[0]);
      await send(hub.key, SOLVER_KEYS[0], outputHubAsset, encodeApprove(intents, 2_000_000n));
      const fill = await walletOf(hub.key, SOLVER_KEYS[0]).writeContract({
        address: intents,
        abi: INTENTS_ABI,
        functionName: 'fillIntent',
        args: [intentValues(intent), 10n ** 15n, 2_000_000n, 0n],
        account: solver,
        chain: undefined,
      });
      await clientOf(hub.key).waitForTransactionReceipt({ hash: fill });
      const before = await clientOf(base.key).readContract({
        address: baseUsdc.address as Address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [user.address],
      });
      const [packet] = await executed('146', fill);
      expect(packet).toMatchObject({ src_chain_id: '146', dst_chain_id: '30', src_address: hub.contracts!.hubAssetManager!.toLowerCase() });
      expect(
        (await clientOf(base.key).readContract({
          address: baseUsdc.address as Address,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [user.address],
        })) - before,
      ).toBe(2_000_000n);
    });

    it('holds messages while stopped and carries them once started again', async () => {
      await devnet.relayer.stop();
      const spoke = directory.findChain('0x2105.base')!;
      const txHash = await send(spoke.key, DEV_KEYS[3], spoke.connection as Address, encodeSendMessageRaw(146n, encodeHubCalls([])));
      const waiting = await relay('get_transaction_packets', { chain_id: '30', tx_hash: txHash });
      expect(waiting.data!.map((p) => p.status)).toEqual(['pending']);
      devnet.relayer.start();
      const [packet] = await executed('30', txHash);
      expect(packet.dst_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    });
  });
});

/** `Connection.sendMessage(dstChainId, 0x, payload)`: a message anyone may send. */
function encodeSendMessageRaw(dstChainId: bigint, payload: Hex): Hex {
  return encodeFunctionData({ abi: SPOKE_ABI, functionName: 'sendMessage', args: [dstChainId, '0x', payload] });
}
