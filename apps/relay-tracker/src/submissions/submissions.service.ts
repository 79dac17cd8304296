import { Injectable } from '@nestjs/common';
import { intentHash } from '@swap/chains';
import { AppError, ErrorCode, type SubmissionStatusResponse, type SubmitTxRequest, type SubmitTxResponse } from '@swap/contracts';
import { PrismaClient, type Prisma } from '../generated/prisma/client';

/**
 * Submissions of broadcast source transactions, unique on (txHash, srcChainKey): the
 * first submit of a pair inserts it (`inserted`), every later one changes nothing
 * (`duplicate`), whatever the concurrency (the unique index decides).
 */
@Injectable()
export class SubmissionsService {
  constructor(private readonly db: PrismaClient) {}

  async submit(request: SubmitTxRequest): Promise<SubmitTxResponse> {
    const { count } = await this.db.submission.createMany({
      data: [
        {
          txHash: request.txHash,
          srcChainKey: request.srcChainKey,
          walletAddress: request.walletAddress,
          intent: request.intent as unknown as Prisma.InputJsonValue,
          relayData: request.relayData,
          intentHash: intentHash(request.intent),
        },
      ],
      skipDuplicates: true,
    });
    return count === 1
      ? { success: true, data: { status: 'inserted', message: 'Submission received; poll GET /v1/swaps/submit-tx/status until solved or failed' } }
      : { success: true, data: { status: 'duplicate', message: 'This transaction was already submitted; nothing changed' } };
  }

  async status(txHash: string, srcChainKey: string): Promise<SubmissionStatusResponse> {
    const row = await this.db.submission.findUnique({ where: { txHash_srcChainKey: { txHash, srcChainKey } } });
    if (!row) throw new AppError(404, ErrorCode.NotFound, `No submission of transaction ${txHash} on ${srcChainKey}`);
    return {
      data: {
        status: row.status,
        ...(row.userMessage ? { userMessage: row.userMessage } : {}),
        txHash: row.txHash,
        srcChainKey: row.srcChainKey,
        intentHash: row.intentHash ?? intentHash(row.intent as never),
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      },
    };
  }
}
