import { useCallback, useEffect, useState } from 'react';
import { AddEndpointDialog, NewSecret } from './AddWebhookDialog';
import { api, ApiError, type Membership, type WebhookAttempt, type WebhookEndpoint } from './api';
import { Modal } from './Modal';
import { Deliveries, TestOutcome } from './WebhookDeliveries';

const MAX_ENDPOINTS = 5;
const when = (iso: string) => <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;

/**
 * An organisation's webhook endpoints. Owners and admins add (the secret shown once),
 * rotate, test, delete and replay deliveries; members read the endpoints and their logs.
 */
export function WebhooksPanel({ membership }: { membership: Membership }) {
  const manager = membership.role !== 'member';
  const path = `/orgs/${membership.orgId}/webhooks`;
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[]>();
  const [error, setError] = useState('');
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ title: string; secret: string }>();
  const [deleting, setDeleting] = useState<WebhookEndpoint>();
  const [rotating, setRotating] = useState<WebhookEndpoint>();
  const [outcomes, setOutcomes] = useState<Record<string, WebhookAttempt>>({});
  const [open, setOpen] = useState<string>();

  const refresh = useCallback(async () => {
    setError('');
    try {
      setEndpoints(await api<WebhookEndpoint[]>('GET', path));
    } catch (e) {
      setError((e as Error).message);
    }
  }, [path]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const act = async (run: () => Promise<void>) => {
    setError('');
    try {
      await run();
    } catch (e) {
      setError((e as Error).message);
    }
    await refresh();
  };

  return (
    <section aria-labelledby="webhooks-title" className="card">
      <div className="bar">
        <h2 id="webhooks-title">Webhooks of {membership.orgName}</h2>
        <button type="button" onClick={() => void refresh()}>
          Refresh
        </button>
        {manager && (
          <button
            type="button"
            disabled={(endpoints?.length ?? 0) >= MAX_ENDPOINTS}
            onClick={() => (setAdding(true), setSecret(undefined))}
          >
            Add endpoint
          </button>
        )}
      </div>
      <p className="hint">
        Each transition of a swap submitted with one of this organisation’s keys is POSTed to every endpoint, signed per Standard Webhooks
        (at most {MAX_ENDPOINTS} endpoints).
      </p>
      {error && <p role="alert">{error}</p>}
      {!manager && <p>You are a member: you can see the endpoints and their deliveries; an owner or admin changes them.</p>}
      {secret && <NewSecret {...secret} onDone={() => setSecret(undefined)} />}
      {endpoints === undefined ? (
        <p>Loading endpoints…</p>
      ) : endpoints.length === 0 ? (
        <p>No endpoints yet.</p>
      ) : (
        <ul className="members">
          {endpoints.map((e) => (
            <li key={e.id} aria-label={`Endpoint ${e.url}`}>
              <span>
                <code>{e.url}</code>
                {e.description && <> · {e.description}</>}
                <br />
                <span className="hint">
                  {e.events.includes('submission.status') ? 'Every transition' : 'Solved and failed only'} · added {when(e.createdAt)}
                  {e.previousSecretValidUntil && <> · the previous secret signs too until {when(e.previousSecretValidUntil)}</>}
                </span>
                {e.disabledAt ? (
                  <p className="warn-strong" role="status">
                    Disabled {when(e.disabledAt)}: {e.disabledReason}. Nothing is sent to it; fix the receiver, then delete it and add it
                    again.
                  </p>
                ) : (
                  e.failingSince && (
                    <p className="warn" role="status">
                      Failing since {when(e.failingSince)}: deliveries are retried; after 3 days of failures it is disabled.
                    </p>
                  )
                )}
                {outcomes[e.id] && <TestOutcome outcome={outcomes[e.id]} />}
              </span>
              <button
                type="button"
                className="secondary"
                aria-expanded={open === e.id}
                onClick={() => setOpen(open === e.id ? undefined : e.id)}
              >
                Deliveries
              </button>
              {manager && (
                <>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() =>
                      void act(async () => {
                        const outcome = await api<WebhookAttempt>('POST', `${path}/${e.id}/test`);
                        setOutcomes((o) => ({ ...o, [e.id]: outcome }));
                      })
                    }
                  >
                    Send test
                  </button>
                  <button type="button" className="secondary" onClick={() => setRotating(e)}>
                    Rotate secret
                  </button>
                  <button type="button" className="danger" aria-label={`Delete endpoint ${e.url}`} onClick={() => setDeleting(e)}>
                    Delete
                  </button>
                </>
              )}
              {open === e.id && <Deliveries path={`${path}/${e.id}`} manager={manager} />}
            </li>
          ))}
        </ul>
      )}
      {adding && (
        <AddEndpointDialog
          path={path}
          onClose={() => setAdding(false)}
          onAdded={(created) => (
            setAdding(false),
            setSecret({ title: `Endpoint ${created.url} added.`, secret: created.secret }),
            void refresh()
          )}
        />
      )}
      {rotating && (
        <Modal labelledBy="rotate-title" onClose={() => setRotating(undefined)}>
          <h3 id="rotate-title">Rotate the secret of {rotating.url}?</h3>
          <p>
            A new secret is made and shown once. The current one keeps signing beside it for 24 hours, so you can switch your receiver
            meanwhile.
          </p>
          <div className="bar">
            <button
              type="button"
              onClick={() => {
                const endpoint = rotating;
                setRotating(undefined);
                void act(async () => {
                  const rotated = await api<WebhookEndpoint & { secret: string }>('POST', `${path}/${endpoint.id}/rotate-secret`);
                  setSecret({ title: `New secret of ${endpoint.url}.`, secret: rotated.secret });
                });
              }}
            >
              Rotate secret
            </button>
            <button type="button" autoFocus onClick={() => setRotating(undefined)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
      {deleting && (
        <Modal labelledBy="delete-hook-title" onClose={() => setDeleting(undefined)}>
          <h3 id="delete-hook-title">Delete endpoint {deleting.url}?</h3>
          <p>Nothing more is sent to it, and its delivery log goes with it.</p>
          <div className="bar">
            <button
              type="button"
              className="danger"
              onClick={() => {
                const endpoint = deleting;
                setDeleting(undefined);
                void act(async () => {
                  try {
                    await api('DELETE', `${path}/${endpoint.id}`);
                  } catch (e) {
                    if (!(e instanceof ApiError && e.status === 404)) throw e;
                  }
                });
              }}
            >
              Delete endpoint
            </button>
            <button type="button" autoFocus onClick={() => setDeleting(undefined)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
