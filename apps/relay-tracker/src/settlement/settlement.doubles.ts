import {
  ChainAccess,
  RelayApiClient,
  RelayApiError,
  type ChainInfo,
  type EvmAdapter,
  type MinedTransaction,
  type RelayPacket,
  type SpokeAdapter,
  type SpokeSourceCheck,
} from '@swap/chains';
import { AppError, ErrorCode, type RpcReply, type RpcRequest, type RpcSubject } from '@swap/contracts';
import { MessagingClient, type Bus, type WorkResult } from '@swap/messaging';
import { createLogger } from '@swap/observability';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { PrismaClient } from '../generated/prisma/client';
import { RelayTrackerConfig } from '../relay-tracker.config';
import { ClaimsService } from '../submissions/claims.service';
import { SettlementChains } from './settlement-chains';
import { HUB, NETWORK, PROFILE, SETTINGS, SPOKE } from './settlement.fixtures';
import { SettlementWorker } from './settlement.worker';
import type { SubmissionStore } from './submission-store';
import { MemorySubmissionStore } from './submission-store.double';

export * from './settlement.fixtures';
export { MemorySubmissionStore, type Announced } from './submission-store.double';

/* Doubles for the settlement specs; the worker is the real one. */

/** `down` makes every read fail as an RPC error does. */
export class FixedChainAccess extends ChainAccess {
  readonly mined = new Map<string, MinedTransaction>();
  readonly reads: { chain: string; read: string; txHash: string }[] = [];
  down = false;
  /** Runs before the next read's answer is returned (something happening while a step looks). */
  afterNextRead?: () => Promise<unknown>;

  constructor() {
    super({ timeoutMs: 1 });
  }

  readonly networkSources = new Map<string, SpokeSourceCheck>();

  mine(chainKey: string, txHash: string, transaction: MinedTransaction): void {
    this.mined.set(`${chainKey}:${txHash}`, transaction);
  }

  override async spoke<T>(chain: ChainInfo, read: (adapter: SpokeAdapter) => Promise<T>): Promise<T> {
    const adapter: Pick<SpokeAdapter, 'chain' | 'checkSource'> = {
      chain,
      checkSource: async (txId) => {
        this.reads.push({ chain: chain.key, read: 'checkSource', txHash: txId });
        if (this.down) throw new Error('connect ECONNREFUSED');
        return this.networkSources.get(`${chain.key}:${txId}`) ?? { found: false };
      },
    };
    try {
      return await read(adapter as SpokeAdapter);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(503, ErrorCode.ChainUnavailable, `${chain.key} could not be read; retry later`);
    }
  }

  override async evm<T>(chain: ChainInfo, read: (adapter: EvmAdapter) => Promise<T>): Promise<T> {
    const answer = async <A>(name: string, txHash: string, value: () => A): Promise<A> => {
      this.reads.push({ chain: chain.key, read: name, txHash });
      if (this.down) throw new Error('connect ECONNREFUSED');
      const result = value();
      const hook = this.afterNextRead;
      this.afterNextRead = undefined;
      await hook?.();
      return result;
    };
    const adapter: Pick<EvmAdapter, 'chain' | 'minedTransaction' | 'transaction'> = {
      chain,
      minedTransaction: (h) => answer('minedTransaction', h, () => this.mined.get(`${chain.key}:${h}`)),
      transaction: (h) =>
        answer('transaction', h, () => {
          const mined = this.mined.get(`${chain.key}:${h}`);
          return mined && { blockNumber: mined.blockNumber, from: mined.from, to: mined.to, input: mined.input };
        }),
    };
    try {
      return await read(adapter as EvmAdapter);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError(503, ErrorCode.ChainUnavailable, `${chain.key} could not be read; retry later`);
    }
  }
}

export class FixedRelay extends RelayApiClient {
  readonly submits: { chainId: string; txHash: string; data?: { address: string; payload: string } }[] = [];
  readonly packetReads: { chainId: string; txHash: string }[] = [];
  readonly packets = new Map<string, RelayPacket[]>();
  down = false;

  constructor() {
    super('http://relay.invalid', { timeoutMs: 1 });
  }

  override async submit(chainId: string, txHash: string, data?: { address: string; payload: string }): Promise<{ success: true }> {
    this.submits.push({ chainId, txHash, ...(data ? { data } : {}) });
    if (this.down) throw new RelayApiError('relay API answered 503');
    return { success: true };
  }

  override async transactionPackets(chainId: string, txHash: string): Promise<RelayPacket[]> {
    this.packetReads.push({ chainId, txHash });
    if (this.down) throw new RelayApiError('relay API answered 503');
    return this.packets.get(txHash) ?? [];
  }
}

export class FixedSettlementChains extends SettlementChains {
  declare readonly access: FixedChainAccess;
  declare readonly relay: FixedRelay;

  constructor(config: RelayTrackerConfig) {
    super(config);
    Object.assign(this, { access: new FixedChainAccess(), relay: new FixedRelay() });
  }
}

export class FixedMarketplace extends MessagingClient {
  readonly requests: { subject: string; payload: unknown }[] = [];
  refusal?: AppError;

  constructor() {
    super({} as Bus, { timeoutMs: 1 });
  }

  override async request<S extends RpcSubject>(subject: S, payload: RpcRequest<S>): Promise<RpcReply<S>> {
    this.requests.push({ subject, payload });
    if (this.refusal) throw this.refusal;
    return { answer: 'OK', intent_hash: '' } as RpcReply<S>;
  }
}

export class MemoryClaimsDb {
  readonly rejected: { submissionId: string; walletAddress: string; intentHash: string; reason: string; settled: boolean }[] = [];
  readonly rejectedClaim = {
    create: async ({ data }: { data: MemoryClaimsDb['rejected'][number] }) => this.rejected.push(data),
    findMany: async ({ where }: { where: { submissionId: string } }) =>
      this.rejected.filter((c) => c.submissionId === where.submissionId && !c.settled),
    deleteMany: async () => ({ count: 0 }),
    updateMany: async () => ({ count: 0 }),
  };
  async $executeRaw(): Promise<number> {
    return 0;
  }
}

export interface Settlement {
  store: MemorySubmissionStore;
  chains: FixedSettlementChains;
  marketplace: FixedMarketplace;
  claims: MemoryClaimsDb;
  run(id: string): Promise<WorkResult>;
  /** Another replica's worker, on the same store, chains and marketplace. */
  replica(): SettlementWorker;
}

export function settlement(): Settlement {
  const dir = mkdtempSync(join(tmpdir(), 'settlement-spec-'));
  let chains: FixedSettlementChains;
  const config = Object.assign(new RelayTrackerConfig(), SETTINGS, {
    CHAIN_PROFILE: join(dir, 'profile.json'),
    CHAIN_RPC_URLS: `${HUB.key}=http://hub.rpc.invalid,${SPOKE.key}=http://spoke.rpc.invalid,${NETWORK.key}=http://network.rpc.invalid`,
  });
  try {
    writeFileSync(config.CHAIN_PROFILE, JSON.stringify(PROFILE));
    chains = new FixedSettlementChains(config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const store = new MemorySubmissionStore();
  const marketplace = new FixedMarketplace();
  const claims = new MemoryClaimsDb();
  const logger = createLogger({
    service: 'relay-tracker',
    level: 'silent',
    destination: new Writable({ write: (_c, _e, done) => done() }),
  });
  const replica = () =>
    new SettlementWorker(
      store as unknown as SubmissionStore,
      chains,
      new ClaimsService(claims as unknown as PrismaClient),
      marketplace,
      config,
      logger,
    );
  const worker = replica();
  return { store, chains, marketplace, claims, run: (id) => worker.process({ id, attempt: 1 }), replica };
}
