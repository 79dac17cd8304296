import { Injectable } from '@nestjs/common';
import { intentHash } from '@swap/chains';
import type { Intent, SubmitTxMessage } from '@swap/contracts';
import { RequestContext } from '@swap/observability';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import type { SubmissionRow } from '../settlement/submission-store';

/** What the chain says a source transaction carried. */
export interface ChainTruth {
  intent: Intent;
  intentHash: string;
  payload: string;
  from: string;
}

/**
 * The chain is the truth: whoever submits a hash first does not fix its intent. A claim
 * (intent, relay payload, wallet) that differs from what the mined transaction carried is
 * kept here, with its submitter, for audit; the swap's state comes from the chain.
 */
@Injectable()
export class ClaimsService {
  constructor(private readonly db: PrismaClient) {}

  /** The first claim, once the source transaction is read: kept if it was not what the chain says. */
  async checkAgainstChain(row: SubmissionRow, truth: ChainTruth): Promise<void> {
    const reasons = differences({ intentHash: row.intentHash ?? '', relayData: row.relayData, walletAddress: row.walletAddress }, truth);
    if (reasons.length) await this.reject(row.id, { walletAddress: row.walletAddress, intent: row.intent as unknown as Intent, relayData: row.relayData, orgId: row.submittedByOrg }, reasons.join('; '));
  }

  /** A repeated submit of a known pair: kept when it claims something else than the swap holds. */
  async checkRepeat(row: SubmissionRow, claim: SubmitTxMessage): Promise<void> {
    const held = { intent: row.intent as unknown as Intent, intentHash: row.intentHash ?? '', payload: row.relayData, from: row.walletAddress };
    const reasons = differences({ intentHash: intentHash(claim.intent), relayData: claim.relayData, walletAddress: claim.walletAddress }, held);
    if (reasons.length === 0) return;
    const why = row.verified ? reasons.join('; ') : `${reasons.join('; ')} (than the earlier claim; the chain decides)`;
    await this.reject(row.id, { walletAddress: claim.walletAddress, intent: claim.intent, relayData: claim.relayData, orgId: claim.orgId ?? null }, why);
  }

  private async reject(submissionId: string, claim: { walletAddress: string; intent: Intent; relayData: string; orgId: string | null }, reason: string): Promise<void> {
    await this.db.rejectedClaim.create({
      data: { submissionId, walletAddress: claim.walletAddress, intent: claim.intent as unknown as Prisma.InputJsonValue, relayData: claim.relayData, orgId: claim.orgId, requestId: RequestContext.requestId() ?? null, reason },
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
