import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Events, type EventContract } from '@swap/contracts';
import { RfqService } from './rfq.service';
import { SolverConnections } from './solver-connections';

/** Bus events every replica hears: solver status changes, replicas leaving, and intents to hand to its solvers. */
@Controller()
export class MarketplaceEvents {
  constructor(
    private readonly connections: SolverConnections,
    private readonly rfq: RfqService,
  ) {}

  @EventPattern(Events.solverChanged)
  async solverChanged(@Payload() event: EventContract[typeof Events.solverChanged]): Promise<void> {
    if (typeof event?.solverId === 'string' && event.status !== 'active')
      await this.connections.recheck(event.solverId, `solver ${event.status}`);
  }

  @EventPattern(Events.replicaPresent)
  replicaPresent(@Payload() event: EventContract[typeof Events.replicaPresent]): void {
    if (typeof event?.replica === 'string') this.rfq.present(event.replica);
  }

  @EventPattern(Events.replicaLeaving)
  replicaLeaving(@Payload() event: EventContract[typeof Events.replicaLeaving]): void {
    if (typeof event?.replica === 'string' && event.replica !== this.connections.replicaId) this.rfq.forget(event.replica);
  }

  @EventPattern(Events.executionPosted)
  executionPosted(@Payload() event: EventContract[typeof Events.executionPosted]): void {
    if (event?.frame?.type === 'execute' && (event.audience === 'winner' || event.audience === 'all'))
      this.connections.deliverExecution(event.frame, event.audience);
  }
}
