import { Inject, Injectable } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  canonicalAddress,
  canonicalTxHash,
  Subjects,
  submissionStatusKey,
  type LeverageOperation,
  type SubmitTxRequest,
  type SubmitTxResponse,
  txHashProblemOn,
} from '@swap/contracts';
import type { ReadModelStore } from '@swap/cache';
import { ChainCatalogMirror } from '@swap/chain-catalog';
import { MessagingClient } from '@swap/messaging';
import { RequestContext } from '@swap/observability';
import { READ_MODELS } from '@swap/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SwapGatewayConfig } from '../swap-gateway.config';
import { SubmitLimits } from './submit-limits';

/** A submit whose answer was lost (the bus timed out, or no replica answered) is handed over again, this many times in all: it is idempotent. */
export const SUBMIT_ATTEMPTS = 3;
const NO_RESPONDER_PAUSE_MS = 250;

/** submit-tx and its status, for swaps and leveraged-yield alike (one submission record). */
@Injectable()
export class SubmitTx {
  constructor(
    private readonly messaging: MessagingClient,
    private readonly catalog: ChainCatalogMirror,
    private readonly limits: SubmitLimits,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    private readonly config: SwapGatewayConfig,
  ) {}

  async submit(
    body: SubmitTxRequest & { operation?: LeverageOperation },
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<SubmitTxResponse> {
    // Validation (the source network's rules included) ran first: a refused request is not counted.
    const chain = await this.catalog.chain(body.srcChainKey);
    await this.limits.admitClient(request, reply);
    const wallet = canonicalAddress(chain.type, body.walletAddress);
    const giveBack = await this.limits.reserveWallet(wallet, reply, () =>
      this.isTracked(canonicalTxHash(chain.type, body.txHash), chain.key),
    );
    const orgId = RequestContext.current()?.orgId;
    try {
      const { response, answerLost } = await this.handOver({ ...body, srcChainKey: chain.key, ...(orgId ? { orgId } : {}) });
      // A duplicate after a lost answer is most likely this very submit, stored by the replica that died: counted once.
      if (response.data.status !== 'inserted' && !answerLost) await giveBack();
      return response;
    } catch (error) {
      await giveBack();
      throw error;
    }
  }

  /** The status answer as JSON text: the read model's, or relay-tracker's on a miss (never kept). */
  async statusJson(query: { txHash: string; srcChainKey: string }): Promise<string> {
    const chain = await this.catalog.chain(query.srcChainKey);
    const problem = txHashProblemOn(chain.type, 'txHash', query.txHash);
    if (problem) throw AppError.validation([problem]);
    const txHash = canonicalTxHash(chain.type, query.txHash);
    const kept = await this.readModels.get(submissionStatusKey(chain.key, txHash)).catch(() => undefined);
    return kept ?? (await this.messaging.requestJson(Subjects.submissionStatus, { txHash: query.txHash, srcChainKey: chain.key }));
  }

  /** Sends the submit to relay-tracker, again where its answer was lost; each attempt bounded so all fit the gateway's upstream timeout. */
  private async handOver(
    message: SubmitTxRequest & { orgId?: string; operation?: LeverageOperation },
  ): Promise<{ response: SubmitTxResponse; answerLost: boolean }> {
    const timeoutMs = Math.max(200, Math.floor(this.config.RPC_TIMEOUT_MS / 2));
    // Only a timed-out attempt may have been stored (no responder, or a refusal, stored nothing).
    let answerLost = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return { response: await this.messaging.request(Subjects.submissionSubmit, message, { timeoutMs }), answerLost };
      } catch (error) {
        const code = error instanceof AppError ? error.code : undefined;
        if ((code !== ErrorCode.DependencyTimeout && code !== ErrorCode.DependencyUnavailable) || attempt >= SUBMIT_ATTEMPTS) throw error;
        if (code === ErrorCode.DependencyTimeout) answerLost = true;
        // No replica took it (one restarting): a moment for another to subscribe.
        else await new Promise((resolve) => setTimeout(resolve, NO_RESPONDER_PAUSE_MS));
      }
    }
  }

  private async isTracked(txHash: string, srcChainKey: string): Promise<boolean> {
    const kept = await this.readModels.get(submissionStatusKey(srcChainKey, txHash)).catch(() => undefined);
    if (kept) return true;
    try {
      await this.messaging.request(Subjects.submissionStatus, { txHash, srcChainKey });
      return true;
    } catch (error) {
      if (error instanceof AppError && error.getStatus() === 404) return false;
      throw error;
    }
  }
}
