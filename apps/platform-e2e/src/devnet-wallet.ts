import { loadChainDirectory, type ChainDirectory } from '@swap/chains';
import type { EvmTx, SubmissionStatusResponse } from '@swap/contracts';
import { eventually, jsonOf } from '@swap/testing';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  erc20Abi,
  http,
  type Address,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type WalletClient,
} from 'viem';
import type { Platform } from '../../../tools/embedded/src/platform';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of many shapes, read field by field by the tests */

export type Status = SubmissionStatusResponse['data'];

/**
 * A user of a devnet platform: its wallet on every EVM chain of the devnet, and the public
 * API through the gateway (JSON in, JSON out), to run swaps the way an integrator does.
 */
export class DevnetWallet {
  readonly directory: ChainDirectory;
  private readonly clients = new Map<string, { read: PublicClient; write: WalletClient }>();

  constructor(
    private readonly platform: Platform,
    readonly user: PrivateKeyAccount,
  ) {
    this.directory = loadChainDirectory(platform.devnet!.profilePath);
    for (const c of this.directory.chains.filter((x) => x.type === 'EVM')) {
      const chain = defineChain({
        id: c.chainId as number,
        name: c.name,
        nativeCurrency: { name: 'E', symbol: 'E', decimals: 18 },
        rpcUrls: { default: { http: c.rpcUrls! } },
      });
      this.clients.set(c.key, {
        read: createPublicClient({ chain, transport: http(c.rpcUrls![0]), pollingInterval: 100 }),
        write: createWalletClient({ chain, transport: http(c.rpcUrls![0]), account: user }),
      });
    }
  }

  token(chainKey: string, symbol: string): Address {
    return this.directory.tokensOf(chainKey).find((t) => t.symbol === symbol)!.address as Address;
  }

  async post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.platform.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await jsonOf(res) };
  }

  async get(path: string): Promise<any> {
    return jsonOf(await fetch(`${this.platform.gatewayUrl}${path}`));
  }

  /** Signs and sends a built transaction from the user's wallet; its hash and outcome once mined. */
  async send(chainKey: string, tx: EvmTx, gas?: bigint): Promise<{ hash: Hex; status: string }> {
    const c = this.clients.get(chainKey)!;
    const hash = await c.write.sendTransaction({
      to: tx.to as Address,
      data: tx.data as Hex,
      value: BigInt(tx.value),
      account: this.user,
      chain: c.write.chain,
      ...(gas ? { gas } : {}),
    });
    return { hash, status: (await c.read.waitForTransactionReceipt({ hash })).status };
  }

  balance(chainKey: string, asset: Address): Promise<bigint> {
    return this.clients
      .get(chainKey)!
      .read.readContract({ address: asset, abi: erc20Abi, functionName: 'balanceOf', args: [this.user.address] });
  }

  async status(txHash: string, srcChainKey: string): Promise<Status> {
    return (await this.get(`/v1/swaps/submit-tx/status?txHash=${txHash}&srcChainKey=${srcChainKey}`)).data;
  }

  /** Polls the status until solved or failed. */
  settled(txHash: string, srcChainKey: string, timeoutMs = 30_000): Promise<Status> {
    return eventually(
      async () => {
        const s = await this.status(txHash, srcChainKey);
        return s.status === 'solved' || s.status === 'failed' ? s : undefined;
      },
      timeoutMs,
      100,
    );
  }
}
