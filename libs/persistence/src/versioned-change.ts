/** What a service needs of its Prisma client here: interactive transactions. */
export interface TransactionRunner<Tx> {
  $transaction<R>(work: (tx: Tx) => Promise<R>): Promise<R>;
}

export interface VersionedChangeOptions<Tx, T, E> {
  db: TransactionRunner<Tx>;
  /** The change itself. */
  work: (tx: Tx) => Promise<T>;
  /**
   * Bumps the version row, after the work and in its transaction (the row lock orders
   * concurrent changes), and answers the event that announces this version.
   */
  bump: (tx: Tx) => Promise<E>;
  /** Publishes the event once the transaction has committed. */
  announce: (event: E) => void;
  /** A publish that fails costs the event, never the change: every replica reloads on its timer anyway. */
  onAnnounceFailed: (error: unknown, event: E) => void;
}

/**
 * A change of a versioned set (a key set): the work and the bump of its version in one
 * transaction, then, after commit, the announcement of the new version. An event is never
 * published for a change that rolled back, and a failed publish is reported, not thrown.
 */
export async function versionedChange<Tx, T, E>(options: VersionedChangeOptions<Tx, T, E>): Promise<T> {
  const { result, event } = await options.db.$transaction(async (tx) => {
    const result = await options.work(tx);
    return { result, event: await options.bump(tx) };
  });
  try {
    // An announcement that turns out asynchronous is reported the same way when it fails.
    const announced: unknown = options.announce(event);
    if (announced instanceof Promise) announced.catch((error: unknown) => options.onAnnounceFailed(error, event));
  } catch (error) {
    options.onAnnounceFailed(error, event);
  }
  return result;
}
