import { Injectable } from '@nestjs/common';
import { intentHash } from '@swap/chains';
import type { Intent, SubmitTxMessage } from '@swap/contracts';
import { RequestContext } from '@swap/observability';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import type { SubmissionRow } from '../settlement/submission-store';

export interface ChainTruth {
  intent: Intent;
  intentHash: string;
  payload: string;
  from: string;
}

/** Claims that differ from the chain, kept for audit; see docs/architecture/settlement.md#idempotency-and-claims. */
@Injectable()
export class ClaimsService {
  constructor(private readonly db: PrismaClient) {}

  /** The first claim, once the source transaction is read; later ones are settled by `settle`. */
  async checkAgainstChain(row: SubmissionRow, truth: ChainTruth): Promise<void> {
    if (row.adopted) return; // taken from the chain itself: nobody claimed anything
    const reasons = differences({ intentHash: row.intentHash ?? '', relayData: row.relayData, walletAddress: row.walletAddress }, truth);
    if (reasons.length) {
      await this.reject(
        row.id,
        {
          walletAddress: row.walletAddress,
          intent: row.intent as unknown as Intent,
          intentHash: row.intentHash ?? '',
          relayData: row.relayData,
          orgId: row.submittedByOrg,
        },
        reasons.join('; '),
        true,
      );
    }
  }

  /** Claims only compared with the first one, now with the chain; a repeat racing with this settles itself (checkRepeat). */
  async settle(submissionId: string, truth: Omit<ChainTruth, 'intent'>): Promise<void> {
    for (const claim of await this.db.rejectedClaim.findMany({ where: { submissionId, settled: false } })) {
      const wrong = differences(claim, truth);
      if (wrong.length === 0) await this.db.rejectedClaim.deleteMany({ where: { id: claim.id } });
      else await this.db.rejectedClaim.updateMany({ where: { id: claim.id }, data: { settled: true, reason: wrong.join('; ') } });
    }
    await this.db.$executeRaw`UPDATE relay_tracker.submissions SET claims_pending = false WHERE id = ${submissionId}::uuid`;
  }

  async checkRepeat(row: SubmissionRow, claim: SubmitTxMessage): Promise<void> {
    const held = {
      intent: row.intent as unknown as Intent,
      intentHash: row.intentHash ?? '',
      payload: row.relayData,
      from: row.walletAddress,
    };
    const hash = intentHash(claim.intent);
    const reasons = differences({ intentHash: hash, relayData: claim.relayData, walletAddress: claim.walletAddress }, held);
    if (reasons.length === 0) return;
    // Before the chain is read the swap holds only the first claim: which one is true is not known yet.
    const reason = row.verified ? reasons.join('; ') : 'differs from the first claim; the chain decides';
    await this.reject(
      row.id,
      {
        walletAddress: claim.walletAddress,
        intent: claim.intent,
        intentHash: hash,
        relayData: claim.relayData,
        orgId: claim.orgId ?? null,
      },
      reason,
      row.verified,
    );
    if (row.verified) return;
    await this.db.$executeRaw`UPDATE relay_tracker.submissions SET claims_pending = true WHERE id = ${row.id}::uuid`;
    // The chain may have been read while this claim was compared with the first one.
    const now = await this.db.submission.findUnique({ where: { id: row.id } });
    if (now?.verified) await this.settle(row.id, { intentHash: now.intentHash ?? '', payload: now.relayData, from: now.walletAddress });
  }

  private async reject(
    submissionId: string,
    claim: { walletAddress: string; intent: Intent; intentHash: string; relayData: string; orgId: string | null },
    reason: string,
    settled: boolean,
  ): Promise<void> {
    await this.db.rejectedClaim.create({
      data: {
        submissionId,
        walletAddress: claim.walletAddress,
        intent: claim.intent as unknown as Prisma.InputJsonValue,
        intentHash: claim.intentHash,
        relayData: claim.relayData,
        settled,
        orgId: claim.orgId,
        requestId: RequestContext.requestId() ?? null,
        reason,
      },
    });
  }
}

function differences(claim: { intentHash: string; relayData: string; walletAddress: string }, truth: Omit<ChainTruth, 'intent'>): string[] {
  const reasons: string[] = [];
  if (claim.intentHash.toLowerCase() !== truth.intentHash.toLowerCase()) reasons.push('a different intent');
  if (claim.relayData.toLowerCase() !== truth.payload.toLowerCase()) reasons.push('a different relay payload');
  if (claim.walletAddress.toLowerCase() !== truth.from.toLowerCase()) reasons.push('a different sender');
  return reasons;
}
