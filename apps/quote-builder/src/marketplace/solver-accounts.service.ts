import { Inject, Injectable } from '@nestjs/common';
import { AppError, ErrorCode, Events, type SolverView } from '@swap/contracts';
import { hashKey, mintKey } from '@swap/key-auth';
import { MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { Prisma, PrismaClient } from '../generated/prisma/client';

export interface AuthenticatedSolver {
  id: string;
  name: string;
}

/** A credential (`slv_` + 32 random bytes) is shown once; only its SHA-256 is stored, as with API keys. */
@Injectable()
export class SolverAccountsService {
  constructor(
    private readonly db: PrismaClient,
    private readonly messaging: MessagingClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async add(name: string, actor: string): Promise<{ credential: string; solver: SolverView }> {
    const minted = mintKey('solver');
    try {
      const row = await this.db.solver.create({
        data: { name, credentialHash: minted.hash, prefix: minted.displayPrefix, createdBy: actor },
      });
      this.logger.info({ solverId: row.id, name, prefix: row.prefix, actor }, 'solver registered');
      return { credential: minted.key, solver: view(row) };
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new AppError(409, ErrorCode.Conflict, `A solver named ${name} is already registered`);
      }
      throw error;
    }
  }

  async list(): Promise<SolverView[]> {
    return (await this.db.solver.findMany({ orderBy: { createdAt: 'asc' } })).map(view);
  }

  async setSuspended(id: string, suspended: boolean, actor: string): Promise<SolverView> {
    const row = await this.db.solver.update({ where: { id }, data: { status: suspended ? 'suspended' : 'active' } }).catch(notFound(id));
    this.logger.info({ solverId: id, status: row.status, actor }, suspended ? 'solver suspended' : 'solver lifted');
    this.announce(id, row.status);
    return view(row);
  }

  async remove(id: string, actor: string): Promise<{ removed: string }> {
    await this.db.solver.delete({ where: { id } }).catch(notFound(id));
    this.logger.info({ solverId: id, actor }, 'solver removed');
    this.announce(id, 'removed');
    return { removed: id };
  }

  async authenticate(credential: string): Promise<AuthenticatedSolver | undefined> {
    const row = await this.db.solver.findUnique({
      where: { credentialHash: hashKey(credential) },
      select: { id: true, name: true, status: true },
    });
    return row?.status === 'active' ? { id: row.id, name: row.name } : undefined;
  }

  async activeAmong(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.solver.findMany({ where: { id: { in: ids }, status: 'active' }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }

  private announce(solverId: string, status: 'active' | 'suspended' | 'removed'): void {
    try {
      this.messaging.emit(Events.solverChanged, { solverId, status });
    } catch (error) {
      // The replicas re-check a solver's status when they next hand it work.
      this.logger.warn({ err: error, solverId }, 'solver change not announced');
    }
  }
}

function view(row: { id: string; name: string; prefix: string; status: 'active' | 'suspended'; createdAt: Date }): SolverView {
  return { id: row.id, name: row.name, prefix: row.prefix, status: row.status, createdAt: row.createdAt.toISOString() };
}

function notFound(id: string) {
  return (error: unknown): never => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025')
      throw new AppError(404, ErrorCode.NotFound, `Solver not found: ${id}`);
    throw error;
  };
}
