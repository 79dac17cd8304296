import { Injectable } from '@nestjs/common';
import { ChainAccess } from '@swap/chains';
import { AppError, ErrorCode } from '@swap/contracts';
import type { Address, Hex } from 'viem';
import { PrismaClient } from '../generated/prisma/client';
import { ChainCatalog } from '../chain-catalog/chain-catalog.service';

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
    const hub = this.catalog.chains.hub;
    const intents = hub.contracts?.intents;
    if (!intents) throw new AppError(503, ErrorCode.NotConfigured, 'This deployment has no intents contract configured for the hub');
    const state = await this.chains.evm(hub, (a) => a.intentState(intents as Address, intentHash));
    if (state.exists) return 'open';
    if (state.receivedOutput > 0n) return 'solved';
    const { count } = await this.db.execution.updateMany({
      where: { intentHash: intentHash.toLowerCase(), status: { in: ['posted', 'cancelled'] } },
      data: { status: 'cancelled' },
    });
    return count > 0 ? 'cancelled' : 'unknown';
  }
}
