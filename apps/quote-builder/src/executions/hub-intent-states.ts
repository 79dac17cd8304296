import { Injectable } from '@nestjs/common';
import { ChainAccess } from '@swap/chains';
import { AppError, ErrorCode } from '@swap/contracts';
import type { Address, Hex } from 'viem';
import { PrismaClient } from '../generated/prisma/client';
import { ChainCatalog } from '../chain-catalog/chain-catalog';

/**
 * Where an intent stands on the hub now: `open` (input left to fill or cancel), `solved`
 * (filled, nothing left), `cancelled`, or `unknown` (the hub never had it, or it was
 * cancelled without ever being handed to solvers here: the contract keeps no trace that
 * tells the two apart).
 */
export type HubIntentState = 'open' | 'solved' | 'cancelled' | 'unknown';

/**
 * Reads an intent's state from the hub's intents contract (`intentStates`): a cancelled
 * intent keeps no input and received no output, a filled one received output. An intent
 * handed to solvers here (an execution row) that the hub no longer holds without output was
 * cancelled: the row is marked so, answered from the table from then on and handed to no
 * solver again.
 */
@Injectable()
export class HubIntentStates {
  constructor(
    private readonly db: PrismaClient,
    private readonly catalog: ChainCatalog,
    private readonly chains: ChainAccess,
  ) {}

  async of(intentHash: Hex): Promise<HubIntentState> {
    const intents = this.intentsContract();
    const state = await this.chains.evm(this.catalog.chains.hub, (a) => a.intentState(intents, intentHash));
    if (state.exists) return 'open';
    if (state.receivedOutput > 0n) return 'solved';
    const { count } = await this.db.execution.updateMany({
      where: { intentHash: intentHash.toLowerCase(), status: { in: ['posted', 'cancelled'] } },
      data: { status: 'cancelled' },
    });
    return count > 0 ? 'cancelled' : 'unknown';
  }

  /** The hub's intents contract, or a 503 saying the deployment names none. */
  intentsContract(): Address {
    const address = this.catalog.chains.hub.contracts?.intents;
    if (!address) throw new AppError(503, ErrorCode.NotConfigured, 'This deployment has no intents contract configured for the hub');
    return address as Address;
  }
}
