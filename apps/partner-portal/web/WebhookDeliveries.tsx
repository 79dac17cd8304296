import { useCallback, useEffect, useState } from 'react';
import { api, type WebhookAttempt, type WebhookDelivery } from './api';

const when = (iso: string) => <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;

/** What a test delivery came to, under its endpoint. */
export function TestOutcome({ outcome }: { outcome: WebhookAttempt }) {
  return (
    <p role="status" className={outcome.ok ? 'hint' : 'warn'}>
      Test {outcome.ok ? 'delivered' : 'failed'}: {outcome.statusCode ? `answered ${outcome.statusCode}` : outcome.error} in{' '}
      {outcome.latencyMs} ms
      {!outcome.ok && outcome.statusCode && outcome.error ? ` (${outcome.error})` : ''}
    </p>
  );
}

/** An endpoint's delivery log (the last 7 days, newest first, 50 a page), with replay for owners and admins. */
export function Deliveries({ path, manager }: { path: string; manager: boolean }) {
  const [page, setPage] = useState<{ deliveries: WebhookDelivery[]; nextCursor?: string }>();
  const [error, setError] = useState('');
  const load = useCallback(
    async (cursor?: string) => {
      setError('');
      try {
        const next = await api<{ deliveries: WebhookDelivery[]; nextCursor?: string }>(
          'GET',
          `${path}/deliveries${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        setPage((p) => (cursor && p ? { deliveries: [...p.deliveries, ...next.deliveries], nextCursor: next.nextCursor } : next));
      } catch (e) {
        setError((e as Error).message);
      }
    },
    [path],
  );
  useEffect(() => {
    void load();
  }, [load]);
  if (error) return <p role="alert">{error}</p>;
  if (!page) return <p>Loading deliveries…</p>;
  if (page.deliveries.length === 0) return <p>No deliveries in the last 7 days.</p>;
  return (
    <div style={{ flexBasis: '100%' }}>
      <table aria-label="Deliveries">
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Outcome</th>
            <th scope="col">Attempts</th>
            {manager && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {page.deliveries.map((d) => (
            <tr key={d.id}>
              <td>
                {d.type}
                {d.seq !== undefined && <> #{d.seq}</>}
                {d.txHash && (
                  <>
                    <br />
                    <code>{d.txHash}</code>
                  </>
                )}
                <br />
                <span className="hint">{when(d.createdAt)}</span>
              </td>
              <td>
                {d.delivered ? (
                  'Delivered'
                ) : d.gaveUpAt ? (
                  'Given up'
                ) : d.nextAttemptAt ? (
                  <>Next try {when(d.nextAttemptAt)}</>
                ) : (
                  'Not delivered'
                )}
                {d.lastStatusCode !== undefined && <> · {d.lastStatusCode}</>}
                {d.lastLatencyMs !== undefined && <> · {d.lastLatencyMs} ms</>}
                {d.lastError && !d.delivered && (
                  <>
                    <br />
                    <span className="warn">{d.lastError}</span>
                  </>
                )}
              </td>
              <td>{d.attempts}</td>
              {manager && (
                <td>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Replay delivery ${d.id}`}
                    onClick={async () => {
                      try {
                        await api('POST', `${path}/deliveries/${d.id}/replay`);
                      } catch (e) {
                        setError((e as Error).message);
                      }
                      await load();
                    }}
                  >
                    Replay
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {page.nextCursor && (
        <button type="button" className="link" onClick={() => void load(page.nextCursor)}>
          Older deliveries
        </button>
      )}
    </div>
  );
}
