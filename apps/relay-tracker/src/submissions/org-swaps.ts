import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode, type OrgFeeRow, type SubmissionStatusData } from '@swap/contracts';
import { DATABASE_POOL } from '@swap/service-kit';
import type pg from 'pg';
import { SUBMISSION_COLUMNS, submissionsOf } from '../settlement/submission-sql';
import { SettlementChains } from '../settlement/settlement-chains';
import { statusAnswer } from './status-answer';
import type { OrgFeesMessage, OrgSwapsMessage } from './submissions.messages';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Without its chain, a hash is looked for in each form canonicalTxHash stores (0x and lower case on EVM chains and ICON, lower case on Stellar, upper case on Injective). */
function storedForms(txHash: string): string[] {
  const hex = /^(0x)?([0-9a-fA-F]{64})$/.exec(txHash)?.[2];
  return hex ? [`0x${hex.toLowerCase()}`, hex.toLowerCase(), hex.toUpperCase()] : [txHash];
}

/** The swaps an organisation's keys submitted, for the partner portal (which checks membership first). */
@Injectable()
export class OrgSwaps {
  constructor(
    @Inject(DATABASE_POOL) private readonly pool: pg.Pool,
    private readonly chains: SettlementChains,
  ) {}

  /** Newest first; the cursor is the last one's creation time (milliseconds, as stored) and id. */
  async list(q: OrgSwapsMessage): Promise<{ swaps: SubmissionStatusData[]; nextCursor?: string }> {
    const limit = q.limit ?? 50;
    const params: unknown[] = [q.orgId];
    const where = ['submitted_by_org = $1'];
    if (q.status) where.push(`status = $${params.push(q.status)}::relay_tracker."SubmissionStatus"`);
    if (q.txHash) where.push(`tx_hash = ANY($${params.push(storedForms(q.txHash))}::text[])`);
    if (q.cursor) {
      const [at, id] = parseCursor(q.cursor);
      where.push(`(created_at, id) < ($${params.push(at)}::timestamptz, $${params.push(id)}::uuid)`);
    }
    const rows = await submissionsOf(
      this.pool,
      `SELECT ${SUBMISSION_COLUMNS} FROM relay_tracker.submissions WHERE ${where.join(' AND ')}
       ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const more = rows.length > limit && last;
    return {
      swaps: page.map((r) => statusAnswer(r).data),
      ...(more ? { nextCursor: Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString('base64url') } : {}),
    };
  }

  /** The partner fees its solved swaps carried (the fee record in each intent's data, indexed from the hub), summed per UTC day, token and receiver. */
  async fees(q: OrgFeesMessage): Promise<{ fees: OrgFeeRow[] }> {
    const { rows } = await this.pool.query<OrgFeeRow>(
      `SELECT to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, lower(i.input_token) AS token, i.fee_receiver AS receiver,
         sum(i.fee_amount)::text AS amount, count(*)::int AS swaps
       FROM relay_tracker.submissions s JOIN relay_tracker.explorer_intents i ON i.intent_hash = s.intent_hash
       WHERE s.submitted_by_org = $1 AND s.status = 'solved' AND i.fee_amount > 0 AND s.updated_at >= $2::timestamptz AND s.updated_at < $3::timestamptz
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [q.orgId, q.from, q.to],
    );
    return { fees: rows };
  }

  /** 404 unless the organisation's keys submitted it, as if unknown. */
  async get(orgId: string, txHash: string, srcChainKey: string): Promise<SubmissionStatusData> {
    const [row] = await submissionsOf(
      this.pool,
      `SELECT ${SUBMISSION_COLUMNS} FROM relay_tracker.submissions WHERE tx_hash = $1 AND src_chain_key = $2 AND submitted_by_org = $3`,
      [this.chains.storedTxHash(txHash, srcChainKey), srcChainKey, orgId],
    );
    if (!row)
      throw new AppError(
        404,
        ErrorCode.NotFound,
        `No swap of transaction ${txHash} on ${srcChainKey} was submitted with this organisation's keys`,
      );
    return statusAnswer(row).data;
  }
}

function parseCursor(cursor: string): [string, string] {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || !UUID.test(id ?? '') || !ISO_MS.test(at) || Number.isNaN(Date.parse(at)))
    throw AppError.validation([{ field: 'cursor', rule: 'nextCursor', message: 'cursor must be the nextCursor of a previous page' }]);
  return [at, id];
}
