export interface TransactionRunner<Tx> {
  $transaction<R>(work: (tx: Tx) => Promise<R>): Promise<R>;
}

export interface VersionedChangeOptions<Tx, T, E> {
  db: TransactionRunner<Tx>;
  work: (tx: Tx) => Promise<T>;
  /** After the work, in its transaction: the row lock orders concurrent changes. */
  bump: (tx: Tx) => Promise<E>;
  announce: (event: E) => void;
  /** A failed publish costs the event, never the change: replicas reload on their timer anyway. */
  onAnnounceFailed: (error: unknown, event: E) => void;
}

/** Never an event for a change that rolled back. */
export async function versionedChange<Tx, T, E>(options: VersionedChangeOptions<Tx, T, E>): Promise<T> {
  const { result, event } = await options.db.$transaction(async (tx) => {
    const result = await options.work(tx);
    return { result, event: await options.bump(tx) };
  });
  try {
    const announced: unknown = options.announce(event);
    if (announced instanceof Promise) announced.catch((error: unknown) => options.onAnnounceFailed(error, event));
  } catch (error) {
    options.onAnnounceFailed(error, event);
  }
  return result;
}
