import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, type Membership, type OrgSwap, type OrgSwapsPage } from './api';

const STATUS_LABELS: Record<OrgSwap['status'], string> = {
  pending: 'Submitted',
  relaying: 'Relaying to the hub',
  relayed: 'On the hub',
  posting_execution: 'Being filled',
  posted_execution: 'Filled, delivering',
  solved: 'Solved',
  failed: 'Failed',
};
/** A finished swap: how long it took; one in flight: how long it has been running. */
const took = (s: OrgSwap) => {
  const ms = (s.terminal ? Date.parse(s.updatedAt) : Date.now()) - Date.parse(s.createdAt);
  const text = ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 60_000)} min`;
  return s.terminal ? text : `${text} so far`;
};

/** The swaps submitted with the organisation's keys (any member), newest first; each opens in the explorer. */
export function SwapsPanel({ membership }: { membership: Membership }) {
  const path = `/orgs/${membership.orgId}/swaps`;
  const [swaps, setSwaps] = useState<OrgSwap[]>();
  const [next, setNext] = useState<string>();
  const [query, setQuery] = useState('');
  const [error, setError] = useState('');

  const load = useCallback(
    async (hash: string, cursor?: string) => {
      setError('');
      try {
        const params = new URLSearchParams({ limit: '20', ...(hash ? { txHash: hash } : {}), ...(cursor ? { cursor } : {}) });
        const page = await api<OrgSwapsPage>('GET', `${path}?${params}`);
        setSwaps((shown) => (cursor ? [...(shown ?? []), ...page.swaps] : page.swaps));
        setNext(page.nextCursor);
      } catch (e) {
        setError((e as Error).message);
      }
    },
    [path],
  );
  useEffect(() => {
    void load('');
  }, [load]);

  const search = (e: FormEvent) => {
    e.preventDefault();
    void load(query.trim());
  };

  return (
    <section aria-labelledby="swaps-title" className="card">
      <div className="bar">
        <h2 id="swaps-title">Swaps of {membership.orgName}</h2>
        <button type="button" onClick={() => void load(query.trim())}>
          Refresh swaps
        </button>
      </div>
      <p className="hint">Swaps submitted with this organisation&apos;s API keys, newest first.</p>
      <form onSubmit={search} className="inline" role="search" aria-label="Find a swap">
        <label>
          Source transaction hash
          <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="0x… or a Solana signature" />
        </label>
        <button type="submit">Find</button>
      </form>
      {error && <p role="alert">{error}</p>}
      {swaps?.length === 0 && (
        <p data-testid="no-swaps">
          {query.trim()
            ? 'No swap of this transaction was submitted with this organisation’s keys.'
            : 'No swaps submitted with this organisation’s keys yet.'}
        </p>
      )}
      {swaps && swaps.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Submitted</th>
              <th scope="col">Status</th>
              <th scope="col">Source transaction</th>
              <th scope="col">Took</th>
            </tr>
          </thead>
          <tbody>
            {swaps.map((s) => (
              <tr key={`${s.srcChainKey}/${s.txHash}`}>
                <td>
                  <time dateTime={s.createdAt}>{new Date(s.createdAt).toLocaleString()}</time>
                </td>
                <td>
                  <span className={`badge ${s.status}`}>{STATUS_LABELS[s.status]}</span>
                  {s.userMessage && <div className="hint">{s.userMessage}</div>}
                </td>
                <td>
                  <a href={`/explorer/tx/${encodeURIComponent(s.txHash)}`} title="Open its timeline in the explorer">
                    <code>{`${s.txHash.slice(0, 10)}…${s.txHash.slice(-6)}`}</code>
                  </a>{' '}
                  <span className="hint">{s.srcChainKey}</span>
                </td>
                <td>{took(s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next && (
        <button type="button" className="secondary" onClick={() => void load(query.trim(), next)}>
          Show older swaps
        </button>
      )}
    </section>
  );
}
