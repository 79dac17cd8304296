import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, type Invitation, type Member, type Membership, type Role } from './api';
import { Modal } from './Modal';

/** Members, their roles and invitations: for owners and admins. */
export function MembersPanel({ membership, me, onChanged }: { membership: Membership; me: string; onChanged: () => void }) {
  const [members, setMembers] = useState<Member[]>();
  const [invitations, setInvitations] = useState<Invitation[]>([]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [sent, setSent] = useState<Invitation>();
  const [inviting, setInviting] = useState(false);
  const [error, setError] = useState('');
  const [removing, setRemoving] = useState<Member>();
  const base = `/orgs/${membership.orgId}`;
  const owner = membership.role === 'owner';

  const refresh = useCallback(async () => {
    try {
      setMembers(await api<Member[]>('GET', `${base}/members`));
      setInvitations(await api<Invitation[]>('GET', `${base}/invitations`));
    } catch (e) {
      setError((e as Error).message);
    }
  }, [base]);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const act = async (call: () => Promise<unknown>) => {
    setError('');
    try {
      await call();
    } catch (e) {
      setError((e as Error).message);
    }
    await refresh();
    onChanged();
  };
  const invite = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setInviting(true);
    try {
      const created = await api<Invitation>('POST', `${base}/invitations`, { email, role });
      setSent(created);
      setEmail('');
      await refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setInviting(false);
    }
  };

  return (
    <section aria-labelledby="members-title" className="card">
      <h2 id="members-title">Members</h2>
      {error && <p role="alert">{error}</p>}
      <ul className="members">
        {members?.map((m) => (
          <li key={m.userId}>
            <span>{m.email}</span>
            <label>
              <span className="sr-only">Role of {m.email}</span>
              <select
                value={m.role}
                disabled={!owner && m.role === 'owner'}
                onChange={(e) => void act(() => api('PATCH', `${base}/members/${m.userId}`, { role: e.target.value }))}
              >
                {(owner || m.role === 'owner' ? ['owner', 'admin', 'member'] : ['admin', 'member']).map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            {(owner || m.role !== 'owner' || m.userId === me) && (
              <button
                type="button"
                className="secondary"
                aria-label={m.userId === me ? 'Leave this organisation' : `Remove ${m.email}`}
                onClick={() => setRemoving(m)}
              >
                {m.userId === me ? 'Leave' : 'Remove'}
              </button>
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={invite} className="inline" aria-label="Invite a member">
        <label>
          Email to invite
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="member">member (reads keys)</option>
            <option value="admin">admin (manages keys)</option>
          </select>
        </label>
        <button type="submit" disabled={inviting}>
          Invite
        </button>
      </form>
      {sent?.link && (
        <p role="status" data-testid="invitation-sent">
          {sent.emailSent
            ? `The invitation was e-mailed to ${sent.email}. You may also send them this link: `
            : sent.emailError
              ? `The invitation could not be e-mailed (${sent.emailError}); send this link to ${sent.email} yourself: `
              : `Send this link to ${sent.email}: `}
          <code data-testid="invitation-link">{sent.link}</code>{' '}
          <button type="button" className="secondary" onClick={() => void navigator.clipboard.writeText(sent.link!)}>
            Copy link
          </button>
        </p>
      )}
      {invitations.length > 0 && (
        <>
          <h3>Open invitations</h3>
          <ul className="members">
            {invitations.map((i) => (
              <li key={i.id}>
                <span>
                  {i.email} ({i.role}), until {new Date(i.expiresAt).toLocaleDateString()}
                </span>
                <button
                  type="button"
                  aria-label={`Withdraw the invitation of ${i.email}`}
                  onClick={() => void act(() => api('DELETE', `${base}/invitations/${i.id}`))}
                >
                  Withdraw
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {removing && (
        <Modal labelledBy="remove-title" onClose={() => setRemoving(undefined)}>
          <h3 id="remove-title">{removing.userId === me ? `Leave ${membership.orgName}?` : `Remove ${removing.email}?`}</h3>
          <p>
            {removing.userId === me
              ? 'You will no longer see its keys; an owner or admin can invite you again.'
              : 'They will no longer see or manage its keys.'}
          </p>
          <div className="bar">
            <button
              type="button"
              className="danger"
              onClick={() => {
                const member = removing;
                setRemoving(undefined);
                void act(() => api('DELETE', `${base}/members/${member.userId}`));
              }}
            >
              {removing.userId === me ? 'Leave' : 'Remove'}
            </button>
            <button type="button" autoFocus onClick={() => setRemoving(undefined)}>
              Cancel
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
