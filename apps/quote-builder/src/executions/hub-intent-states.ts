import { Injectable } from '@nestjs/common';
import { ChainAccess } from '@swap/chains';
import { AppError, ErrorCode, type IntentLookup } from '@swap/contracts';
import type { Address, Hex } from 'viem';
import { PrismaClient } from '../generated/prisma/client';
import { ChainCatalog } from '../chain-catalog/chain-catalog';

/** `unknown`: never on the hub, or cancelled before it was handed to solvers here (the contract cannot tell). */
export type HubIntentState = 'open' | 'solved' | 'cancelled' | 'unknown';

/** From the contract's `intentStates`; see docs/architecture/chains.md#an-intents-state-on-the-hub. */
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

  /** The intent a hub transaction created, with its state now; 404 when it created none. */
  async createdBy(txHash: Hex): Promise<IntentLookup> {
    const intents = this.intentsContract();
    const hub = this.catalog.chains.hub;
    const events = await this.chains.evm(hub, (a) => a.intentEvents(txHash, intents));
    const created = events?.created[0];
    if (!created) throw AppError.notFound(`Intent not found: ${txHash} created no intent on ${hub.key}`, ErrorCode.IntentNotFound);
    const state = await this.chains.evm(hub, (a) => a.intentState(intents, created.intentHash));
    return {
      intentHash: created.intentHash,
      intent: created.intent,
      state: {
        exists: state.exists,
        remainingInput: state.remainingInput.toString(),
        receivedOutput: state.receivedOutput.toString(),
        pendingPayment: state.pendingPayment,
      },
    };
  }

  intentsContract(): Address {
    const address = this.catalog.chains.hub.contracts?.intents;
    if (!address) throw new AppError(503, ErrorCode.NotConfigured, 'This deployment has no intents contract configured for the hub');
    return address as Address;
  }
}
