import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, ApiError, type Me } from './api';
import { FeesPanel } from './FeesPanel';
import { KeysPanel } from './KeysPanel';
import { MembersPanel } from './MembersPanel';
import { SwapsPanel } from './SwapsPanel';
import { WebhooksPanel } from './WebhooksPanel';

/** With its charting library, in a chunk of its own: the rest of the portal does not wait for it. */
const UsagePanel = lazy(() => import('./UsagePanel').then((m) => ({ default: m.UsagePanel })));

const INVITATION_PATH = /^\/portal\/invitations\/([A-Za-z0-9_-]{16,128})$/;
/** The API's rule (ORGANISATION_NAME_MAX_LENGTH in libs/contracts), repeated here: the browser bundle takes nothing from the server's libs. */
const MAX_ORGANISATION_NAME = 64;

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [orgId, setOrgId] = useState<string>('');
  const [error, setError] = useState<string>('');
  const invitation = INVITATION_PATH.exec(window.location.pathname)?.[1];

  const load = useCallback(async (select?: string) => {
    try {
      const next = await api<Me>('GET', '/me');
      setMe(next);
      setOrgId((current) => select ?? (next.memberships.some((m) => m.orgId === current) ? current : (next.memberships[0]?.orgId ?? '')));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) setMe(null);
      else setError((e as Error).message);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);
  const reload = useCallback(() => void load(), [load]);

  if (me === undefined) return <main>{error ? <p role="alert">{error}</p> : <p>Loading…</p>}</main>;
  if (me === null) return <AuthScreen onSignedIn={() => load()} invited={Boolean(invitation)} />;

  const membership = me.memberships.find((m) => m.orgId === orgId);
  const badInvitation = !invitation && window.location.pathname.startsWith('/portal/invitations/');
  return (
    <main>
      <header className="bar">
        <h1>Partner portal</h1>
        <span className="who">{me.user.email}</span>
        <button type="button" className="secondary" onClick={async () => (await api('POST', '/auth/sign-out'), setMe(null))}>
          Sign out
        </button>
      </header>
      {badInvitation && (
        <p role="alert" className="card">
          This invitation link is not valid (it may have been cut when copied); ask for the link again.
        </p>
      )}
      {invitation && (
        <AcceptInvitation token={invitation} onAccepted={(id) => (window.history.replaceState(null, '', '/portal/'), load(id))} />
      )}
      <section aria-label="Organisations" className="orgs">
        {me.memberships.length > 0 && (
          <label>
            Organisation{' '}
            <select aria-label="Organisation" value={orgId} onChange={(e) => setOrgId(e.target.value)}>
              {me.memberships.map((m) => (
                <option key={m.orgId} value={m.orgId}>
                  {m.orgName} ({m.role})
                </option>
              ))}
            </select>
          </label>
        )}
        <CreateOrganisation onCreated={(id) => load(id)} />
      </section>
      {membership ? (
        <>
          <KeysPanel key={`keys-${membership.orgId}`} membership={membership} onGone={reload} />
          <Suspense fallback={<p className="card">Loading usage…</p>}>
            <UsagePanel key={`usage-${membership.orgId}`} membership={membership} />
          </Suspense>
          <SwapsPanel key={`swaps-${membership.orgId}`} membership={membership} />
          <FeesPanel key={`fees-${membership.orgId}`} membership={membership} />
          <WebhooksPanel key={`webhooks-${membership.orgId}`} membership={membership} />
          {membership.role !== 'member' && (
            <MembersPanel key={`members-${membership.orgId}`} membership={membership} me={me.user.id} onChanged={() => load()} />
          )}
        </>
      ) : (
        <p>Create an organisation to manage its API keys, or ask an owner to invite you.</p>
      )}
    </main>
  );
}

function AuthScreen({ onSignedIn, invited }: { onSignedIn: () => void; invited: boolean }) {
  const [mode, setMode] = useState<'sign-in' | 'sign-up'>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await api('POST', `/auth/${mode}`, { email, password });
      onSignedIn();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="auth">
      <h1>Partner portal</h1>
      {invited && <p>Sign in or create an account with the invited email to accept the invitation.</p>}
      <form onSubmit={submit} aria-label={mode === 'sign-in' ? 'Sign in' : 'Create an account'}>
        <label>
          Email
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'}
            required
            minLength={mode === 'sign-up' ? 10 : 1}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {mode === 'sign-up' && <p className="hint">At least 10 characters.</p>}
        {error && <p role="alert">{error}</p>}
        <button type="submit" disabled={busy}>
          {mode === 'sign-in' ? 'Sign in' : 'Create account'}
        </button>
      </form>
      <button type="button" className="link" onClick={() => (setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in'), setError(''))}>
        {mode === 'sign-in' ? 'No account yet? Create one' : 'Have an account? Sign in'}
      </button>
    </main>
  );
}

function CreateOrganisation({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const org = await api<{ id: string }>('POST', '/orgs', { name: name.trim() });
      setName('');
      onCreated(org.id);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="Create an organisation">
      <label>
        New organisation name
        <input value={name} maxLength={MAX_ORGANISATION_NAME} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" disabled={!name.trim()}>
        Create organisation
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}

function AcceptInvitation({ token, onAccepted }: { token: string; onAccepted: (orgId: string) => void }) {
  const [error, setError] = useState('');
  const [offer, setOffer] = useState<{ orgName: string; role: string; email: string }>();
  useEffect(() => {
    api<{ orgName: string; role: string; email: string }>('GET', `/invitations/${token}`).then(setOffer, (e: Error) => setError(e.message));
  }, [token]);
  if (!offer)
    return (
      <section aria-label="Invitation" className="card">
        {error ? <p role="alert">{error}</p> : <p>Reading the invitation…</p>}
      </section>
    );
  return (
    <section aria-label="Invitation" className="card">
      <p>
        You are invited to join <strong>{offer.orgName}</strong> as {offer.role === 'member' ? 'a' : 'an'} {offer.role} (invitation for{' '}
        {offer.email}).
      </p>
      <button
        type="button"
        onClick={async () => {
          try {
            onAccepted((await api<{ orgId: string }>('POST', `/invitations/${token}/accept`)).orgId);
          } catch (e) {
            setError((e as Error).message);
          }
        }}
      >
        Accept invitation
      </button>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
