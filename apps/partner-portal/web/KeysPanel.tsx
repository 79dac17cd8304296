import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { api, ApiError, PERMISSION_LABELS, type ApiKey, type Membership } from './api';
import { Modal } from './Modal';

const MAX_NAME = 64;

function nameProblem(name: string): string {
  if (!name.trim()) return 'Name is required';
  if (name.length > MAX_NAME) return `Name must be at most ${MAX_NAME} characters (${name.length} now)`;
  return '';
}

/** Organisations whose last create did not complete, with the key ids known before it (docs/integrators/partner-portal.md#the-web-ui). */
const unconfirmedCreates = {
  key: (orgId: string) => `portal:unconfirmed-create:${orgId}`,
  get(orgId: string): Set<string> | undefined {
    const saved = sessionStorage.getItem(this.key(orgId));
    return saved ? new Set(JSON.parse(saved) as string[]) : undefined;
  },
  set(orgId: string, known: Set<string>): void {
    sessionStorage.setItem(this.key(orgId), JSON.stringify([...known]));
  },
  delete(orgId: string): void {
    sessionStorage.removeItem(this.key(orgId));
  },
};

/** An organisation's keys: owners and admins create and revoke, members read. */
export function KeysPanel({ membership, onGone }: { membership: Membership; onGone: () => void }) {
  const manager = membership.role !== 'member';
  const [keys, setKeys] = useState<ApiKey[]>();
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ key: string; name: string }>();
  const [blockedSince, setBlockedSince] = useState<Set<string> | undefined>(() => unconfirmedCreates.get(membership.orgId));
  const [unrecognised, setUnrecognised] = useState<Set<string>>(new Set());
  const [revoking, setRevoking] = useState<ApiKey>();

  const path = `/orgs/${membership.orgId}/keys`;
  const refresh = useCallback(async () => {
    setError('');
    try {
      const list = await api<ApiKey[]>('GET', path);
      setKeys(list);
      const before = unconfirmedCreates.get(membership.orgId);
      if (before) {
        setUnrecognised(new Set(list.filter((k) => !before.has(k.id)).map((k) => k.id)));
        unconfirmedCreates.delete(membership.orgId);
      }
      setBlockedSince(undefined);
    } catch (e) {
      // No longer a member (removed meanwhile): the organisation goes from the page.
      if (e instanceof ApiError && e.status === 404) onGone();
      else setError((e as Error).message);
    }
  }, [path, membership.orgId, onGone]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const onCreateFailed = (e: ApiError) => {
    if (e.unconfirmed || e.status >= 500) {
      const known = new Set((keys ?? []).map((k) => k.id));
      unconfirmedCreates.set(membership.orgId, known);
      setBlockedSince(known);
      setCreating(false);
      setError(`${e.message}. The key may or may not exist: refresh the list before creating another.`);
      return true;
    }
    return false;
  };

  return (
    <section aria-labelledby="keys-title" className="card">
      <div className="bar">
        <h2 id="keys-title">API keys of {membership.orgName}</h2>
        <button type="button" onClick={() => void refresh()}>
          Refresh list
        </button>
        {manager && (
          <button
            type="button"
            disabled={Boolean(blockedSince)}
            onClick={() => (setCreating(true), setCreated(undefined))}
            aria-describedby={blockedSince ? 'create-blocked' : undefined}
          >
            Create key
          </button>
        )}
      </div>
      {blockedSince && (
        <p id="create-blocked" role="status">
          Creating is blocked until the list has been refreshed: the last create did not complete.
        </p>
      )}
      {error && <p role="alert">{error}</p>}
      {!manager && <p>You are a member: you can see the keys; an owner or admin creates and revokes them.</p>}
      {created && <NewKey created={created} onDone={() => setCreated(undefined)} />}
      {keys === undefined ? (
        <p>Loading keys…</p>
      ) : keys.length === 0 ? (
        <p>No keys yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Permissions</th>
              <th scope="col">Created</th>
              {manager && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td>
                  {k.name}
                  {unrecognised.has(k.id) && (
                    <p className="warn" role="status">
                      Not recognised? It may come from the create that did not complete: revoke it if you do not know it.
                    </p>
                  )}
                </td>
                <td>
                  <code>{k.prefix}••••••••</code>
                </td>
                <td>{k.permissions.map((p) => PERMISSION_LABELS[p] ?? p).join(', ')}</td>
                <td>
                  <time dateTime={k.createdAt}>{new Date(k.createdAt).toLocaleString()}</time>
                </td>
                {manager && (
                  <td>
                    <button type="button" aria-label={`Revoke key ${k.name}`} onClick={() => setRevoking(k)}>
                      Revoke
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="hint" data-testid="key-guidance">
        A key belongs on a server: never in a browser bundle, a mobile or desktop app, or a public repository, where anyone can read it. Use
        one key per environment (production, testing), so one can be revoked without stopping the other.
      </p>
      {manager && (
        <details>
          <summary>Rotating a key without downtime</summary>
          <ol>
            <li>Create a second key (an organisation holds at most two).</li>
            <li>Deploy it everywhere the first one is used.</li>
            <li>Revoke the first key here.</li>
          </ol>
        </details>
      )}
      {creating && (
        <CreateKeyDialog
          path={path}
          onClose={() => setCreating(false)}
          onCreated={(key, name) => (setCreating(false), setCreated({ key, name }), void refresh())}
          onUnconfirmed={onCreateFailed}
        />
      )}
      {revoking && (
        <Modal labelledBy="revoke-title" onClose={() => setRevoking(undefined)}>
          <h3 id="revoke-title">Revoke key {revoking.name}?</h3>
          <p>
            Anything using <code>{revoking.prefix}••••••••</code> stops working at once. This cannot be undone.
          </p>
          <div className="bar">
            <button
              type="button"
              className="danger"
              onClick={async () => {
                const key = revoking;
                setRevoking(undefined);
                try {
                  await api('DELETE', `${path}/${key.id}`);
                } catch (e) {
                  if (!(e instanceof ApiError && e.status === 404)) setError((e as Error).message);
                }
                setUnrecognised((u) => new Set([...u].filter((id) => id !== key.id)));
                await refresh();
              }}
            >
              Revoke key
            </button>
            <button type="button" autoFocus onClick={() => setRevoking(undefined)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

function CreateKeyDialog({
  path,
  onClose,
  onCreated,
  onUnconfirmed,
}: {
  path: string;
  onClose: () => void;
  onCreated: (key: string, name: string) => void;
  onUnconfirmed: (e: ApiError) => boolean;
}) {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const sending = useRef(false);
  const problem = nameProblem(name);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    // One create per submit, however fast the clicks (the button disables only on the next render).
    if (problem || sending.current) return;
    sending.current = true;
    setBusy(true);
    setError('');
    try {
      const created = await api<{ key: string; name: string }>('POST', path, { name });
      onCreated(created.key, created.name);
    } catch (err) {
      if (!(err instanceof ApiError && onUnconfirmed(err))) setError((err as Error).message);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <Modal labelledBy="create-title" onClose={onClose} busy={busy}>
      <form onSubmit={submit}>
        <h3 id="create-title">Create an API key</h3>
        <label>
          Key name
          <input
            autoFocus
            value={name}
            aria-invalid={touched && Boolean(problem)}
            aria-describedby="key-name-help"
            onChange={(e) => (setName(e.target.value), setTouched(true))}
          />
        </label>
        <p id="key-name-help" className={touched && problem ? 'invalid' : 'hint'}>
          {touched && problem ? problem : `A label for you, 1 to ${MAX_NAME} characters. Keys can read and execute swaps.`}
        </p>
        {error && <p role="alert">{error}</p>}
        <div className="bar">
          <button type="submit" disabled={busy || Boolean(problem)}>
            Create
          </button>
          <button type="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </div>
        {busy && <p role="status">Creating the key…</p>}
      </form>
    </Modal>
  );
}

function NewKey({ created, onDone }: { created: { key: string; name: string }; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="card new-key" role="region" aria-label="New API key">
      <p>
        <strong>Key “{created.name}” created.</strong>
      </p>
      <p className="warn-strong">Copy it now: it is shown only this once and cannot be shown again.</p>
      <code data-testid="new-key">{created.key}</code>
      <div className="bar">
        <button type="button" onClick={async () => (await navigator.clipboard.writeText(created.key), setCopied(true))}>
          {copied ? 'Copied' : 'Copy key'}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
