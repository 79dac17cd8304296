import { Injectable } from '@nestjs/common';
import { intentHash } from '@swap/chains';
import {
  AppError,
  ErrorCode,
  type SubmissionStatus,
  type SubmissionStatusResponse,
  type SubmissionTransition,
  type SubmitTxMessage,
  type SubmitTxResponse,
} from '@swap/contracts';
import { PrismaClient, type Prisma } from '../generated/prisma/client';
import { SettlementChains } from '../settlement/settlement-chains';
import { SettlementQueue } from '../settlement/settlement-queue';
import { ClaimsService } from './claims.service';

/**
 * Submissions of broadcast source transactions, unique on (txHash, srcChainKey), EVM hashes
 * in lower case (so the same transaction in other letters is the same submission): the
 * first submit of a pair inserts it and hands it to settlement (`inserted`); every later
 * one changes nothing (`duplicate`), whatever the concurrency (the unique index decides),
 * and a later claim that differs is kept for audit only.
 */
@Injectable()
export class SubmissionsService {
  constructor(
    private readonly db: PrismaClient,
    private readonly chains: SettlementChains,
    private readonly queue: SettlementQueue,
    private readonly claims: ClaimsService,
  ) {}

  async submit(request: SubmitTxMessage): Promise<SubmitTxResponse> {
    const txHash = this.normalise(request.txHash, request.srcChainKey);
    const history: SubmissionTransition[] = [{ status: 'pending', at: new Date().toISOString(), detail: 'submitted' }];
    const { count } = await this.db.submission.createMany({
      data: [
        {
          txHash,
          srcChainKey: request.srcChainKey,
          walletAddress: request.walletAddress,
          intent: request.intent as unknown as Prisma.InputJsonValue,
          relayData: request.relayData.toLowerCase(),
          intentHash: intentHash(request.intent),
          history: history as unknown as Prisma.InputJsonValue,
          submittedByOrg: request.orgId ?? null,
        },
      ],
      skipDuplicates: true,
    });
    const row = await this.db.submission.findUniqueOrThrow({ where: { txHash_srcChainKey: { txHash, srcChainKey: request.srcChainKey } } });
    if (count === 1) {
      await this.queue.add(row.id);
      return {
        success: true,
        data: { status: 'inserted', message: 'Submission received; poll GET /v1/swaps/submit-tx/status until solved or failed' },
      };
    }
    // A replica that died between the insert and the hand-over left a swap without work; the
    // client's retry puts it back (adding an item already queued changes nothing).
    if (row.status === 'pending') await this.queue.add(row.id);
    await this.claims.checkRepeat(row, request);
    return { success: true, data: { status: 'duplicate', message: 'This transaction was already submitted; nothing changed' } };
  }

  async status(txHash: string, srcChainKey: string): Promise<SubmissionStatusResponse> {
    const row = await this.db.submission.findUnique({
      where: { txHash_srcChainKey: { txHash: this.normalise(txHash, srcChainKey), srcChainKey } },
    });
    if (!row) throw new AppError(404, ErrorCode.NotFound, `No submission of transaction ${txHash} on ${srcChainKey}`);
    const result = {
      ...(row.hubTxHash ? { hubTxHash: row.hubTxHash } : {}),
      ...(row.fillTxHash ? { fillTxHash: row.fillTxHash } : {}),
      ...(row.deliveryTxHash ? { deliveryTxHash: row.deliveryTxHash } : {}),
    };
    return {
      success: true,
      data: {
        txHash: row.txHash,
        srcChainKey: row.srcChainKey,
        status: row.status,
        ...(row.userMessage ? { userMessage: row.userMessage } : {}),
        ...(row.failedAtStep ? { failedAtStep: row.failedAtStep as SubmissionStatus } : {}),
        processingAttempts: row.processingAttempts,
        ...(Object.keys(result).length ? { result } : {}),
        ...(row.status === 'failed' ? { intentCancelled: row.intentCancelled } : {}),
        history: row.history as unknown as SubmissionTransition[],
        intentHash: row.intentHash ?? intentHash(row.intent as never),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      },
    };
  }

  /** EVM transaction hashes are case-insensitive: one form, lower case. (Solana signatures are not.) */
  private normalise(txHash: string, srcChainKey: string): string {
    return this.chains.registry.findChain(srcChainKey)?.type === 'EVM' ? txHash.toLowerCase() : txHash;
  }
}
