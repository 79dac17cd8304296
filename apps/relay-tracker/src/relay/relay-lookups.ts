import { Injectable } from '@nestjs/common';
import { RelayApiError, relayDataOf, type ChainInfo, type RelayPacket } from '@swap/chains';
import {
  AppError,
  canonicalTxHash,
  ErrorCode,
  txHashCandidates,
  type Intent,
  type IntentExtraDataRequest,
  type IntentPacketRequest,
  type IntentPacketResponse,
  type IntentSubmitRequest,
  type IntentSubmitResponse,
  type RelayDataView,
  txHashProblemOn,
} from '@swap/contracts';
import { PrismaClient } from '../generated/prisma/client';
import { SettlementChains } from '../settlement/settlement-chains';

const PACKET_POLL_MS = 250;

/**
 * The relay helpers of the swaps API: a transaction's relay packet, the relay data of an
 * intent or of a tracked submission, and handing a transaction to the relay untracked.
 * Chains are named by relay chain id (as the public client does) or by chain key.
 */
@Injectable()
export class RelayLookups {
  constructor(
    private readonly db: PrismaClient,
    private readonly chains: SettlementChains,
  ) {}

  async packet(request: IntentPacketRequest): Promise<IntentPacketResponse> {
    if ((request.fillTxHash === undefined) === (request.txHash === undefined)) {
      throw AppError.validation([{ field: 'fillTxHash', rule: 'oneOf', message: 'Give exactly one of fillTxHash and txHash' }]);
    }
    const field = request.fillTxHash !== undefined ? 'fillTxHash' : 'txHash';
    const chain = this.chainOf(request.chainId, 'chainId');
    const txHash = this.txHashOn(chain, (request.fillTxHash ?? request.txHash)!, field);
    const deadline = Date.now() + (request.timeout ?? 0);
    for (;;) {
      const packets = await this.relayed(() => this.chains.relay.transactionPackets(chain.relayChainId, txHash));
      const best = packets.find((p) => p.status === 'executed') ?? packets[0];
      if ((best?.status === 'executed' || Date.now() >= deadline) && best) return packetView(best);
      if (Date.now() >= deadline) throw AppError.notFound(`The relay has no packet for ${txHash} on ${chain.key} (yet)`);
      await new Promise((r) => setTimeout(r, Math.min(PACKET_POLL_MS, Math.max(0, deadline - Date.now()))));
    }
  }

  async extraData(request: IntentExtraDataRequest): Promise<RelayDataView> {
    if ((request.txHash === undefined) === (request.intent === undefined)) {
      throw AppError.validation([{ field: 'txHash', rule: 'oneOf', message: 'Give exactly one of txHash and intent' }]);
    }
    if (request.intent) return this.relayDataOf(request.intent, 'intent');
    const chain = request.srcChainKey !== undefined ? this.chainOf(request.srcChainKey, 'srcChainKey') : undefined;
    const srcChainKey = chain?.key;
    // Stored in each network's canonical text (hex in one case, base58 as given).
    const candidates = chain ? [this.txHashOn(chain, request.txHash!, 'txHash')] : txHashCandidates(request.txHash!);
    const rows = await this.db.submission.findMany({
      where: { txHash: { in: candidates }, ...(srcChainKey ? { srcChainKey } : {}) },
      take: 2,
    });
    if (rows.length === 0)
      throw AppError.notFound(
        `No submission of transaction ${request.txHash}${srcChainKey ? ` on ${srcChainKey}` : ''}; pass the intent instead`,
      );
    if (rows.length > 1) {
      throw AppError.validation([
        {
          field: 'srcChainKey',
          rule: 'requiredWhenAmbiguous',
          message: `srcChainKey is required: ${request.txHash} was submitted on ${rows.map((r) => r.srcChainKey).join(' and ')}`,
        },
      ]);
    }
    // Until the transaction is read from the chain, the stored intent is only what the first submit claimed.
    if (!rows[0].verified) {
      throw new AppError(
        409,
        ErrorCode.Conflict,
        `Transaction ${request.txHash} is not verified on ${rows[0].srcChainKey} yet (status ${rows[0].status}); pass the intent instead, or ask again once it is relaying`,
      );
    }
    return this.relayDataOf(rows[0].intent as unknown as Intent, 'intent');
  }

  async submit(request: IntentSubmitRequest): Promise<IntentSubmitResponse> {
    const chain = this.chainOf(request.chainId, 'chainId');
    if (chain.hub)
      throw AppError.validation([
        { field: 'chainId', rule: 'spokeChain', message: `chainId must name a spoke chain: a ${chain.key} transaction needs no relay` },
      ]);
    const txHash = this.txHashOn(chain, request.txHash, 'txHash');
    if (chain.type === 'SOLANA' && !request.data) {
      throw AppError.validation([
        {
          field: 'data',
          rule: 'requiredOnSolana',
          message: `data (the build response relayData) is required for a ${chain.key} transaction`,
        },
      ]);
    }
    const result = await this.relayed(() => this.chains.relay.submit(chain.relayChainId, txHash, request.data));
    return { result };
  }

  private relayDataOf(intent: Intent, field: string): RelayDataView {
    const hub = this.chains.hub;
    if (!this.chains.byRelayId(intent.srcChain)) {
      throw AppError.validation([
        {
          field: `${field}.srcChain`,
          rule: 'knownChain',
          message: `${field}.srcChain ${intent.srcChain} is not the relay chain id of a supported chain`,
        },
      ]);
    }
    return relayDataOf(intent, { relayChainId: hub.relayChainId, intents: this.chains.intents() });
  }

  /** A chain named in a body by relay chain id or by chain key: unknown is the body's fault (400), as elsewhere. */
  private chainOf(name: string, field: string): ChainInfo {
    const chain = /^\d+$/.test(name) ? this.chains.byRelayId(name) : this.chains.directory.findChain(name);
    if (!chain)
      throw AppError.validation([
        {
          field,
          rule: 'knownChain',
          message: `${field} ${name.slice(0, 64)} is neither a relay chain id nor a chain key of a supported chain`,
        },
      ]);
    return chain;
  }

  /** The hash as the relay knows it (canonicalTxHash: hex ids in one case; base58 signatures as given). */
  private txHashOn(chain: ChainInfo, txHash: string, field: string): string {
    const problem = txHashProblemOn(chain.type, field, txHash);
    if (problem) throw AppError.validation([{ ...problem, message: `${problem.message} (${chain.key})` }]);
    return canonicalTxHash(chain.type, txHash);
  }

  private async relayed<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof RelayApiError)) throw error;
      if (error.kind === 'refused')
        throw new AppError(422, ErrorCode.RelayRefused, `The relay refused it: ${error.message.replace(/^relay API refused \w+: /, '')}`);
      throw new AppError(502, ErrorCode.RelayUnavailable, 'The relay API is unavailable; try again shortly');
    }
  }
}

function packetView(p: RelayPacket): IntentPacketResponse {
  return {
    srcChainId: Number(p.src_chain_id),
    srcTxHash: p.src_tx_hash,
    srcAddress: p.src_address,
    status: p.status,
    dstChainId: Number(p.dst_chain_id),
    connSn: Number(p.conn_sn),
    dstAddress: p.dst_address,
    dstTxHash: p.dst_tx_hash,
    signatures: p.signatures,
    payload: p.payload,
  };
}
