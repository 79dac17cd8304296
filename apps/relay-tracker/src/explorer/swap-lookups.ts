import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  EVM_HASH_PATTERN,
  txHashCandidates,
  type ExplorerIntent,
  type SubmissionStatusData,
  type SwapLookup,
} from '@swap/contracts';
import { DATABASE_POOL } from '@swap/service-kit';
import type pg from 'pg';
import { sourceTransaction } from '../chain-events/source-transaction';
import { SUBMISSION_COLUMNS, submissionsOf } from '../settlement/submission-sql';
import { statusAnswer } from '../submissions/status-answer';
import { SettlementChains } from '../settlement/settlement-chains';
import { ExplorerReads } from './explorer-reads';

/** Whatever hash a support desk was given (source, hub, intent, fill, delivery): the swap's status answer and its indexed intent. */
@Injectable()
export class SwapLookups {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly reads: ExplorerReads,
    private readonly chains: SettlementChains,
  ) {}

  async swap(hash: string): Promise<SwapLookup> {
    const evm = EVM_HASH_PATTERN.test(hash);
    const candidates = txHashCandidates(hash);
    if (candidates.length === 0) {
      throw AppError.validation([
        {
          field: 'hash',
          rule: 'transactionHash',
          message:
            'hash must be a transaction or intent hash of some network: 0x and 64 hex digits (EVM, ICON, an intent), 64 hex digits (Stellar, Injective) or base58 (a Solana signature, a Sui digest)',
        },
      ]);
    }
    const key = evm ? hash.toLowerCase() : hash;
    // The newest, should two chains share a hash.
    let submission = await this.newestSubmission('tx_hash', candidates);
    let intent: ExplorerIntent | undefined;
    if (submission) intent = await this.reads.findIntent('intent_hash', submission.intentHash);
    else if (evm) {
      intent = (await this.reads.findIntent('tx_hash', key)) ?? (await this.reads.findIntent('intent_hash', key));
      const traced = intent ? undefined : await this.traceInIndex(key);
      if (traced) intent = await this.reads.findIntent('intent_hash', traced);
    }
    if (!submission && intent) submission = await this.newestSubmission('intent_hash', [intent.intentHash]);
    if (!submission && !intent)
      throw AppError.notFound(
        `No swap found for ${hash}: nothing submitted here has it, and the hub index holds no intent, deposit, fill or delivery with it (a transaction is indexed a few blocks after it is mined)`,
        ErrorCode.NotFound,
      );
    return {
      submission: submission ?? null,
      intent: intent ?? null,
      source: submission
        ? { chainKey: submission.srcChainKey, txHash: submission.txHash }
        : ((await sourceTransaction(this.chains, String(intent!.intent.srcChain), intent!.txHash, (text, values) =>
            this.pool.query<{ tx_hash: string }>(text, values).then((result) => result.rows),
          )) ?? null),
      addresses: intent ? this.addressesOf(intent) : null,
    };
  }

  private addressesOf(intent: ExplorerIntent): SwapLookup['addresses'] {
    return {
      from: this.chains.addressOn(intent.srcChainKey, intent.intent.srcAddress),
      to: this.chains.addressOn(intent.dstChainKey, intent.intent.dstAddress),
    };
  }

  private async newestSubmission(column: 'tx_hash' | 'intent_hash', values: string[]): Promise<SubmissionStatusData | undefined> {
    const [row] = await submissionsOf(
      this.pool,
      `SELECT ${SUBMISSION_COLUMNS} FROM relay_tracker.submissions WHERE ${column} = ANY($1::text[]) ORDER BY created_at DESC LIMIT 1`,
      [values],
    );
    return row && statusAnswer(row).data;
  }

  /** A hash nobody submitted: a spoke deposit or cancel (`landed`: the hub transaction its message landed in), a hub cancel, a fill or a fill's delivery, traced through the index to its intent's hash. */
  private async traceInIndex(txHash: string): Promise<string | undefined> {
    const spokes = this.chains.directory.chains.filter((c) => !c.hub);
    const hub = this.chains.hub;
    const { rows } = await this.pool.query<{ intent_hash: string }>(
      `WITH spoke(key, relay) AS (SELECT * FROM unnest($2::text[], $3::text[])),
       landed AS (SELECT r.tx_hash FROM relay_tracker.chain_events s
        JOIN spoke ON spoke.key = s.chain_key
        JOIN relay_tracker.chain_events r ON r.chain_key = $4 AND r.kind = 'message_received' AND r.peer_chain = spoke.relay AND r.conn_sn = s.conn_sn
        WHERE s.chain_key = ANY($2::text[]) AND s.tx_hash = $1 AND s.kind = 'message_sent' AND s.peer_chain = $5)
       (SELECT i.intent_hash FROM landed JOIN relay_tracker.explorer_intents i ON i.tx_hash = landed.tx_hash LIMIT 1)
       UNION ALL
       (SELECT f.intent_hash FROM relay_tracker.explorer_fills f WHERE f.tx_hash = $1 LIMIT 1)
       UNION ALL
       (SELECT f.intent_hash FROM relay_tracker.chain_events r
        JOIN spoke ON spoke.key = r.chain_key
        JOIN relay_tracker.chain_events s ON s.chain_key = $4 AND s.kind = 'message_sent' AND s.peer_chain = spoke.relay AND s.conn_sn = r.conn_sn
        JOIN relay_tracker.explorer_fills f ON f.tx_hash = s.tx_hash
        WHERE r.chain_key = ANY($2::text[]) AND r.tx_hash = $1 AND r.kind = 'message_received' AND r.peer_chain = $5 LIMIT 1)
       UNION ALL
       (SELECT c.intent_hash FROM relay_tracker.chain_events c WHERE c.chain_key = $4 AND c.tx_hash = $1 AND c.kind = 'intent_cancelled' LIMIT 1)
       UNION ALL
       (SELECT c.intent_hash FROM landed
        JOIN relay_tracker.chain_events c ON c.chain_key = $4 AND c.tx_hash = landed.tx_hash AND c.kind = 'intent_cancelled' LIMIT 1)
       LIMIT 1`,
      [txHash, spokes.map((c) => c.key), spokes.map((c) => c.relayChainId), hub.key, hub.relayChainId],
    );
    return rows[0]?.intent_hash;
  }
}
