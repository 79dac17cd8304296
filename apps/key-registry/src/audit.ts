import { RequestContext } from '@swap/observability';
import type { Prisma } from './generated/prisma/client';

/** One audit record, written in the transaction of the change it records (with the request id of the call that made it). */
export async function audit(
  tx: Prisma.TransactionClient,
  entry: { actor: string; action: string; organisationId: string | null; target: string | null; details?: Prisma.InputJsonValue },
): Promise<void> {
  await tx.auditRecord.create({ data: { ...entry, requestId: RequestContext.requestId() ?? null } });
}
