import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode, EVM_HASH_PATTERN, txHashProblemOn, type ExplorerIntent, type SwapLookup } from '@swap/contracts';
import { DATABASE_POOL } from '@swap/service-kit';
import type pg from 'pg';
import { SUBMISSION_COLUMNS, submissionsOf } from '../settlement/submission-sql';
import { statusAnswer } from '../submissions/status-answer';
import { ExplorerReads } from './explorer-reads';

/**
 * The explorer page's one read: whatever hash a support desk was given (the user's source
 * transaction on any chain, the hub transaction that created the intent, or the intent
 * hash), the swap it belongs to: its submission's status answer (history with step
 * durations, the failure in words, the chain transactions) and its intent from the hub index
 * (amounts, state, the solver of each fill).
 */
@Injectable()
export class SwapLookups {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly reads: ExplorerReads,
  ) {}

  async swap(hash: string): Promise<SwapLookup> {
    const evm = EVM_HASH_PATTERN.test(hash);
    if (!evm && txHashProblemOn('SOLANA', 'hash', hash)) {
      throw AppError.validation([
        {
          field: 'hash',
          rule: 'transactionHash',
          message: 'hash must be a transaction or intent hash: 0x and 64 hex digits, or a base58 Solana signature',
        },
      ]);
    }
    const key = evm ? hash.toLowerCase() : hash;
    // A source transaction, on whichever chain it was submitted for (the newest, should two chains share a hash).
    let [row] = await submissionsOf(
      this.pool,
      `SELECT ${SUBMISSION_COLUMNS} FROM relay_tracker.submissions WHERE tx_hash = $1 ORDER BY created_at DESC LIMIT 1`,
      [key],
    );
    let intent: ExplorerIntent | undefined;
    if (row) intent = await this.reads.findIntent('intent_hash', statusAnswer(row).data.intentHash);
    else if (evm) intent = (await this.reads.findIntent('tx_hash', key)) ?? (await this.reads.findIntent('intent_hash', key));
    if (!row && intent) {
      [row] = await submissionsOf(
        this.pool,
        `SELECT ${SUBMISSION_COLUMNS} FROM relay_tracker.submissions WHERE intent_hash = $1 ORDER BY created_at DESC LIMIT 1`,
        [intent.intentHash],
      );
    }
    if (!row && !intent) throw AppError.notFound(`No swap found for ${hash}`, ErrorCode.NotFound);
    return { submission: row ? statusAnswer(row).data : null, intent: intent ?? null };
  }
}
