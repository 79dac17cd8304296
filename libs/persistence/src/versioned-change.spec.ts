import { versionedChange, type TransactionRunner } from './versioned-change';

/** A transaction runner that records what happened inside and after its transactions. */
function recorder() {
  const steps: string[] = [];
  const db: TransactionRunner<{ id: number }> = {
    async $transaction(work) {
      steps.push('begin');
      try {
        const result = await work({ id: 1 });
        steps.push('commit');
        return result;
      } catch (error) {
        steps.push('rollback');
        throw error;
      }
    },
  };
  return { steps, db };
}

describe('versionedChange (the work and its version bump in one transaction, announced after commit)', () => {
  it('bumps after the work, inside the transaction, and announces the bump once committed', async () => {
    const { steps, db } = recorder();
    const result = await versionedChange({
      db,
      work: async () => (steps.push('work'), 'created'),
      bump: async () => (steps.push('bump'), { version: 8 }),
      announce: (event) => steps.push(`announce ${event.version}`),
      onAnnounceFailed: () => steps.push('announce failed'),
    });
    expect(result).toBe('created');
    expect(steps).toEqual(['begin', 'work', 'bump', 'commit', 'announce 8']);
  });

  it('announces nothing for a change that rolled back, and the error reaches the caller', async () => {
    const { steps, db } = recorder();
    const change = versionedChange({
      db,
      work: async () => {
        throw new Error('organisation not found');
      },
      bump: async () => (steps.push('bump'), { version: 8 }),
      announce: (event) => steps.push(`announce ${event.version}`),
      onAnnounceFailed: () => steps.push('announce failed'),
    });
    await expect(change).rejects.toThrow('organisation not found');
    expect(steps).toEqual(['begin', 'rollback']);
  });

  it('reports a publish that fails instead of failing the committed change', async () => {
    const { steps, db } = recorder();
    const failures: unknown[] = [];
    const result = await versionedChange({
      db,
      work: async () => 'revoked',
      bump: async () => ({ version: 9 }),
      announce: () => {
        throw new Error('NATS connection is closed');
      },
      onAnnounceFailed: (error, event) => failures.push([(error as Error).message, event]),
    });
    expect(result).toBe('revoked');
    expect(steps).toEqual(['begin', 'commit']);
    expect(failures).toEqual([['NATS connection is closed', { version: 9 }]]);
  });
});
