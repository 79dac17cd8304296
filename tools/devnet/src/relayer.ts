import { RECEIVER_ABI, SPOKE_ABI, type ChainInfo, type ChainProfile, type RelayPacket } from '@swap/chains';
import { createServer, type Server } from 'node:http';
import {
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  getAbiItem,
  http,
  parseAbi,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

const MESSAGE = getAbiItem({ abi: SPOKE_ABI, name: 'Message' });
const RECEIVER_CALLS = parseAbi([
  'function recvMessage(uint256 srcChainId, address srcAddress, uint256 connSn, bytes payload)',
  'function processed(uint256 srcChainId, uint256 connSn) view returns (bool)',
]);
const RECEIVED = getAbiItem({ abi: RECEIVER_ABI, name: 'MessageReceived' });
const DELIVERY_GAS = 5_000_000n;
const RELEASED = getAbiItem({ abi: RECEIVER_ABI, name: 'Released' });

interface Endpoint {
  chain: ChainInfo;
  client: PublicClient;
  wallet: WalletClient;
  viemChain: Chain;
  connection: Address;
  /** The hub entry, or the spoke's asset manager. */
  receiver: Address;
  nextBlock: bigint;
  /** One at a time: one key, one nonce sequence. */
  queue: Promise<void>;
}

/** The relay network's stand-in; its rules are in tools/devnet/CONTRACTS.md. */
export class DevnetRelayer {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly packets = new Map<string, RelayPacket[]>();
  private readonly account: PrivateKeyAccount;
  private server?: Server;
  private timer?: NodeJS.Timeout;
  private parked: (() => void)[] = [];
  private running = false;
  private scanning = false;
  url = '';

  constructor(
    profile: ChainProfile,
    privateKey: Hex,
    private readonly options: { pollMs?: number; log?: (line: string) => void } = {},
  ) {
    this.account = privateKeyToAccount(privateKey);
    const hub = profile.chains.find((c) => c.hub)!;
    for (const chain of profile.chains.filter((c) => c.type === 'EVM' && c.connection)) {
      const rpc = chain.rpcUrls![0];
      const viemChain = defineChain({
        id: chain.chainId as number,
        name: chain.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [rpc] } },
      });
      this.endpoints.set(chain.relayChainId, {
        chain,
        // Not viem's 4 s: deliveries to a chain go one after another.
        client: createPublicClient({ chain: viemChain, transport: http(rpc), pollingInterval: 20 }),
        wallet: createWalletClient({ chain: viemChain, transport: http(rpc), account: this.account }),
        viemChain,
        connection: chain.connection as Address,
        receiver: (chain.hub ? hub.contracts!.hubAssetManager : chain.assetManager) as Address,
        nextBlock: 0n,
        queue: Promise.resolve(),
      });
    }
  }

  get address(): Address {
    return this.account.address;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.timer = setInterval(() => void this.scan(), this.options.pollMs ?? 250);
    const parked = this.parked;
    this.parked = [];
    for (const resume of parked) resume();
    void this.scan();
  }

  /** The relay API keeps answering what it knows. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.timer);
    await Promise.all([...this.endpoints.values()].map((e) => e.queue.catch(() => undefined)));
  }

  async listen(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        void this.answer(body).then((reply) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    await this.stop();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  packetsOf(relayChainId: string, txHash: string): RelayPacket[] {
    return this.packets.get(`${relayChainId}:${txHash.toLowerCase()}`) ?? [];
  }

  private async answer(body: string): Promise<{ success: boolean; message?: string; data?: unknown }> {
    let request: { action?: string; params?: { chain_id?: string; tx_hash?: string; conn_sn?: string } };
    try {
      request = JSON.parse(body) as typeof request;
    } catch {
      return { success: false, message: 'body must be JSON { action, params }' };
    }
    const { chain_id: chainId, tx_hash: txHash, conn_sn: connSn } = request.params ?? {};
    if (typeof chainId !== 'string' || typeof txHash !== 'string')
      return { success: false, message: 'params.chain_id and params.tx_hash are required' };
    if (!/^0x[0-9a-fA-F]{64}$/.test(txHash))
      return {
        success: false,
        message: 'the devnet relay carries its EVM chains only (no Solana validator runs here): tx_hash must be 0x and 64 hex digits',
      };
    const endpoint = this.endpoints.get(chainId);
    if (!endpoint) return { success: false, message: `unknown chain_id ${chainId}` };
    switch (request.action) {
      case 'submit':
        await this.read(endpoint, txHash as Hex).catch(() => undefined);
        return { success: true, message: 'Transaction submitted' };
      case 'get_transaction_packets':
        if (this.packetsOf(chainId, txHash).length === 0) await this.read(endpoint, txHash as Hex).catch(() => undefined);
        return { success: true, data: this.packetsOf(chainId, txHash) };
      case 'get_packet': {
        const packet = this.packetsOf(chainId, txHash).find((p) => p.conn_sn === connSn);
        return packet ? { success: true, data: packet } : { success: false, message: 'packet not found' };
      }
      default:
        return { success: false, message: `unknown action ${request.action}` };
    }
  }

  /** From the receipt, so a `submit` need not wait for a scan. */
  private async read(endpoint: Endpoint, txHash: Hex): Promise<void> {
    const receipt = await endpoint.client.getTransactionReceipt({ hash: txHash });
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== endpoint.connection.toLowerCase()) continue;
      try {
        const { args } = decodeEventLog({ abi: [MESSAGE], data: log.data, topics: log.topics });
        this.track(endpoint, { transactionHash: txHash, args });
      } catch {
        // another event of the connection
      }
    }
  }

  private async scan(): Promise<void> {
    if (this.scanning || !this.running) return;
    this.scanning = true;
    try {
      for (const endpoint of this.endpoints.values()) {
        const latest = await endpoint.client.getBlockNumber();
        if (latest < endpoint.nextBlock) continue;
        const logs = await endpoint.client.getLogs({
          address: endpoint.connection,
          event: MESSAGE,
          fromBlock: endpoint.nextBlock,
          toBlock: latest,
        });
        endpoint.nextBlock = latest + 1n;
        for (const log of logs) this.track(endpoint, log);
      }
    } catch (error) {
      this.options.log?.(`relayer: scan failed (${(error as Error).message}); retrying`);
    } finally {
      this.scanning = false;
    }
  }

  private track(
    source: Endpoint,
    log: {
      transactionHash: Hex | null;
      args: { srcChainId?: bigint; dstChainId?: bigint; nonce?: bigint; sender?: Address; dstAddress?: Hex; payload?: Hex };
    },
  ): void {
    // Only the connection contract's own events count.
    const { srcChainId, dstChainId, nonce, sender, dstAddress, payload } = log.args;
    if (!log.transactionHash || srcChainId === undefined || dstChainId === undefined || nonce === undefined || !sender || !payload) return;
    if (srcChainId.toString() !== source.chain.relayChainId) return;
    const key = `${source.chain.relayChainId}:${log.transactionHash.toLowerCase()}`;
    const list = this.packets.get(key) ?? [];
    if (list.some((p) => p.conn_sn === nonce.toString())) return;
    const packet: RelayPacket = {
      src_chain_id: source.chain.relayChainId,
      src_tx_hash: log.transactionHash.toLowerCase(),
      src_address: sender.toLowerCase(),
      status: 'pending',
      dst_chain_id: dstChainId.toString(),
      conn_sn: nonce.toString(),
      dst_address: dstAddress ?? '0x',
      dst_tx_hash: '',
      signatures: [],
      payload,
    };
    list.push(packet);
    this.packets.set(key, list);
    const destination = this.endpoints.get(packet.dst_chain_id);
    if (!destination) {
      this.options.log?.(`relayer: no route to chain ${packet.dst_chain_id} for ${key}#${packet.conn_sn}`);
      return;
    }
    let attempt = 0;
    const send = () => {
      destination.queue = destination.queue.then(async () => {
        if (!this.running) {
          packet.status = 'pending';
          this.parked.push(send);
          return;
        }
        const delivered = await this.deliver(destination, packet, srcChainId, sender, nonce, payload);
        // Retried outside the queue, so it never holds up the others.
        if (!delivered) setTimeout(send, Math.min(5_000, 250 * 2 ** attempt++)).unref();
      });
    };
    send();
  }

  /** True once the destination has the message (now or before). */
  private async deliver(
    destination: Endpoint,
    packet: RelayPacket,
    srcChainId: bigint,
    sender: Address,
    connSn: bigint,
    payload: Hex,
  ): Promise<boolean> {
    try {
      const done = await destination.client.readContract({
        address: destination.receiver,
        abi: RECEIVER_CALLS,
        functionName: 'processed',
        args: [srcChainId, connSn],
      });
      if (done) {
        packet.dst_tx_hash = await this.deliveryTx(destination, srcChainId, connSn);
        packet.status = 'executed';
        return true;
      }
      packet.status = 'executing';
      const hash = await destination.wallet.writeContract({
        address: destination.receiver,
        abi: RECEIVER_CALLS,
        functionName: 'recvMessage',
        args: [srcChainId, sender, connSn, payload],
        account: this.account,
        chain: destination.viemChain,
        // Fixed: the receiver catches failing calls, so an estimate would find the gas at which they fail cheaply.
        gas: DELIVERY_GAS,
      });
      const receipt = await destination.client.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`delivery ${hash} reverted`);
      packet.dst_tx_hash = hash;
      packet.status = 'executed';
      return true;
    } catch (error) {
      this.options.log?.(
        `relayer: delivery of ${packet.src_chain_id}#${packet.conn_sn} to ${packet.dst_chain_id} failed (${(error as Error).message.split('\n')[0]}); retrying`,
      );
      return false;
    }
  }

  /** A delivery made earlier (before a restart, say). */
  private async deliveryTx(destination: Endpoint, srcChainId: bigint, connSn: bigint): Promise<string> {
    const event = destination.chain.hub ? RECEIVED : RELEASED;
    const logs = await destination.client.getLogs({ address: destination.receiver, event, args: { srcChainId, connSn }, fromBlock: 0n });
    return logs[0]?.transactionHash ?? '';
  }
}
