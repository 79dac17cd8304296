import { Injectable } from '@nestjs/common';
import { Subjects, type ChainSummary } from '@swap/contracts';
import { MessagingClient } from './messaging-client';

const TTL_MS = 5 * 60_000;

/**
 * Chains as quote-builder's registry describes them, kept a few minutes (the registry is
 * configuration and changes only with a deployment). Unknown keys are not kept: a 404
 * goes back to the caller as quote-builder raised it.
 */
@Injectable()
export class ChainDirectory {
  private readonly known = new Map<string, { chain: ChainSummary; until: number }>();

  constructor(private readonly messaging: MessagingClient) {}

  async get(chainKey: string): Promise<ChainSummary> {
    const hit = this.known.get(chainKey);
    if (hit && hit.until > Date.now()) return hit.chain;
    const chain = await this.messaging.request(Subjects.chainGet, { chainKey });
    this.known.set(chainKey, { chain, until: Date.now() + TTL_MS });
    return chain;
  }
}
