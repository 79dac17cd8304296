import type { Intent } from '@swap/contracts';
import {
  createPublicClient,
  decodeEventLog,
  erc20Abi,
  http,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hex,
  type Log,
  type ReadContractParameters,
  type ReadContractReturnType,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { ChainInfo } from './chain-directory';
import { intentFromTuple } from './intent';
import { HUB_WALLET_FACTORY_ABI, INTENTS_ABI } from './protocol-calls';
import { rpcFetch } from './rpc-fetch';

/** An intent as the hub's IntentCreated event carries it, with its hash. */
export interface CreatedIntent {
  intentHash: Hex;
  intent: Intent;
}

export interface MinedTransaction {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  from: Address;
  to: Address | null;
  input: Hex;
  logs: Log[];
}

/** An intent's state on the hub (the intents contract's `intentStates`). */
export interface IntentState {
  exists: boolean;
  remainingInput: bigint;
  receivedOutput: bigint;
  pendingPayment: boolean;
}

/** What a mined transaction did to the hub's intents (events of the intents contract only). */
export interface IntentEvents {
  status: 'success' | 'reverted';
  blockNumber: bigint;
  created: CreatedIntent[];
  filled: { intentHash: Hex; receivedOutput: bigint; pendingPayment: boolean }[];
  cancelled: Hex[];
}

export interface BlockRef {
  number: bigint;
  hash: Hex;
  parentHash: Hex;
  /** UNIX seconds. */
  timestamp: bigint;
}

/** Told of every JSON-RPC request a service sends to a chain, and of the reads that fail (ChainAccess). */
export interface RpcObserver {
  request(chainKey: string): void;
  error(chainKey: string): void;
}

export interface ChainAdapter {
  readonly chain: ChainInfo;
  /** Timestamp (UNIX seconds) of the latest block. */
  latestBlockTime(): Promise<bigint>;
}

/** An EVM chain through viem; see docs/architecture/chains.md#evm-chains. */
export class EvmAdapter implements ChainAdapter {
  private readonly client: PublicClient;
  private blockTime?: { value: Promise<bigint>; at: number };

  constructor(
    readonly chain: ChainInfo,
    options: { timeoutMs?: number; observer?: RpcObserver } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    const observer = options.observer;
    // No retries: a caller waiting on a bus reply has its own deadline; a slow chain fails once.
    this.client = createPublicClient({
      transport: http(url, {
        timeout: options.timeoutMs ?? 5_000,
        retryCount: 0,
        // Counted in the fetch itself: viem builds a costly Request for an onFetchRequest hook.
        fetchFn: rpcFetch(observer ? () => observer.request(chain.key) : undefined),
      }),
    });
  }

  async latestBlock(): Promise<BlockRef> {
    const block = await this.header('latest');
    if (!block) throw new Error(`${this.chain.key} answered no latest block`);
    return block;
  }

  /** The block at a height, or undefined above the head. */
  blockAt(number: bigint): Promise<BlockRef | undefined> {
    return this.header(`0x${number.toString(16)}`);
  }

  /** Read raw: a follower asks several times a second and viem's block formatter converts every field. */
  private async header(tag: string): Promise<BlockRef | undefined> {
    const block = (await this.client.request({ method: 'eth_getBlockByNumber', params: [tag as `0x${string}`, false] })) as {
      number: Hex | null;
      hash: Hex | null;
      parentHash: Hex;
      timestamp: Hex;
    } | null;
    if (!block) return undefined;
    if (block.number === null || block.hash === null) throw new Error('a pending block has no number or hash');
    return { number: BigInt(block.number), hash: block.hash, parentHash: block.parentHash, timestamp: BigInt(block.timestamp) };
  }

  /** Every log the given contracts emitted in blocks `from`…`to` (inclusive), in chain order. */
  logsOf(addresses: Address[], from: bigint, to: bigint): Promise<Log[]> {
    return this.client.getLogs({ address: addresses, fromBlock: from, toBlock: to });
  }

  /** Kept for a second and shared while read: a thousand builds a second make one read. */
  latestBlockTime(): Promise<bigint> {
    if (this.blockTime && Date.now() - this.blockTime.at < 1_000) return this.blockTime.value;
    const value = this.client.getBlock({ blockTag: 'latest' }).then((b) => b.timestamp);
    this.blockTime = { value, at: Date.now() };
    value.catch(() => (this.blockTime = undefined));
    return value;
  }

  allowance(token: Address, owner: Address, spender: Address): Promise<bigint> {
    return this.client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] });
  }

  /** Gas units the chain expects the transaction to use (it must succeed as the sender now). */
  estimateGas(tx: { from: Address; to: Address; value: bigint; data: Hex }): Promise<bigint> {
    return this.client.estimateGas({ account: tx.from, to: tx.to, value: tx.value, data: tx.data });
  }

  /** Wei per gas now. */
  gasPrice(): Promise<bigint> {
    return this.client.getGasPrice();
  }

  /** Undefined while the chain knows no receipt; see intentEventsIn. */
  async intentEvents(txHash: Hex, intents: Address): Promise<IntentEvents | undefined> {
    const receipt = await this.receipt(txHash);
    return receipt && intentEventsIn(receipt, intents);
  }

  /** No receipt: for a transaction whose logs were already read, so it succeeded. */
  async transaction(txHash: Hex): Promise<Omit<MinedTransaction, 'status' | 'logs'> | undefined> {
    try {
      const tx = await this.client.getTransaction({ hash: txHash });
      if (tx.blockNumber === null) return undefined;
      return { blockNumber: tx.blockNumber, from: tx.from, to: tx.to, input: tx.input };
    } catch (error) {
      if (error instanceof TransactionNotFoundError) return undefined;
      throw error;
    }
  }

  async minedTransaction(txHash: Hex): Promise<MinedTransaction | undefined> {
    const receipt = await this.receipt(txHash);
    if (!receipt) return undefined;
    const tx = await this.client.getTransaction({ hash: txHash });
    return { status: receipt.status, blockNumber: receipt.blockNumber, from: tx.from, to: tx.to, input: tx.input, logs: receipt.logs };
  }

  private async receipt(txHash: Hex): Promise<TransactionReceipt | undefined> {
    try {
      return await this.client.getTransactionReceipt({ hash: txHash });
    } catch (error) {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    }
  }

  async intentState(intents: Address, intentHash: Hex): Promise<IntentState> {
    const [exists, remainingInput, receivedOutput, pendingPayment] = await this.client.readContract({
      address: intents,
      abi: INTENTS_ABI,
      functionName: 'intentStates',
      args: [intentHash],
    });
    return { exists, remainingInput, receivedOutput, pendingPayment };
  }

  async intentEventTx(
    intents: Address,
    eventName: 'IntentFilled' | 'IntentCancelled',
    intentHash: Hex,
    fromBlock: bigint,
  ): Promise<Hex | undefined> {
    // intentHash is not indexed: every such event of the contract is read and matched here.
    const logs = await this.client.getLogs({ address: intents, fromBlock, toBlock: 'latest' });
    for (const log of logs) {
      try {
        const decoded = decodeEventLog({ abi: INTENTS_ABI, data: log.data, topics: log.topics });
        if (decoded.eventName === eventName && (decoded.args as { intentHash: Hex }).intentHash.toLowerCase() === intentHash.toLowerCase())
          return log.transactionHash ?? undefined;
      } catch {
        // another event
      }
    }
    return undefined;
  }

  view<const abi extends Abi, name extends ContractFunctionName<abi, 'view'>, const args extends ContractFunctionArgs<abi, 'view', name>>(
    parameters: ReadContractParameters<abi, name, args>,
  ): Promise<ReadContractReturnType<abi, name, args>> {
    return this.client.readContract(parameters);
  }

  /** The spoke user's hub wallet (relay chain id, raw address bytes); callers cache it. */
  hubWalletOf(factory: Address, relayChainId: bigint, user: Hex): Promise<Address> {
    return this.client.readContract({
      address: factory,
      abi: HUB_WALLET_FACTORY_ABI,
      functionName: 'getDeployedAddress',
      args: [relayChainId, user],
    });
  }
}

/** The intents-contract events among a mined transaction's logs (logs of other contracts are ignored, whatever they claim to be). */
export function intentEventsIn(
  mined: { status: 'success' | 'reverted'; blockNumber: bigint; logs: Log[] },
  intents: Address,
): IntentEvents {
  const events: IntentEvents = { status: mined.status, blockNumber: mined.blockNumber, created: [], filled: [], cancelled: [] };
  for (const log of mined.logs) {
    if (log.address.toLowerCase() !== intents.toLowerCase()) continue;
    let decoded;
    try {
      decoded = decodeEventLog({ abi: INTENTS_ABI, data: log.data, topics: log.topics });
    } catch {
      continue;
    }
    if (decoded.eventName === 'IntentCreated')
      events.created.push({ intentHash: decoded.args.intentHash, intent: intentFromTuple(decoded.args.intent) });
    else if (decoded.eventName === 'IntentFilled') {
      events.filled.push({
        intentHash: decoded.args.intentHash,
        receivedOutput: decoded.args.intentState.receivedOutput,
        pendingPayment: decoded.args.intentState.pendingPayment,
      });
    } else if (decoded.eventName === 'IntentCancelled') events.cancelled.push(decoded.args.intentHash);
  }
  return events;
}
