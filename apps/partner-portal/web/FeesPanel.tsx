import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api, type FeeReport, type Membership } from './api';

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const short = (address: string) => `${address.slice(0, 8)}…${address.slice(-4)}`;

/** The partner fees the organisation's solved swaps carried, per day, token and receiver (any member), with a CSV download. */
export function FeesPanel({ membership }: { membership: Membership }) {
  const path = `/orgs/${membership.orgId}/fees`;
  const [range, setRange] = useState(() => ({ from: day(Date.now() - 29 * DAY_MS), to: day(Date.now()) }));
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  const [report, setReport] = useState<FeeReport>();
  const [error, setError] = useState('');
  // The form names the last day; the API takes the day after it.
  const query = new URLSearchParams({ from: range.from, to: day(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS) });

  const load = useCallback(
    async (q: string) => {
      setError('');
      try {
        setReport(await api<FeeReport>('GET', `${path}?${q}`));
      } catch (e) {
        setError((e as Error).message);
      }
    },
    [path],
  );
  const q = query.toString();
  useEffect(() => {
    void load(q);
  }, [load, q]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!from || !to) return setError('Choose the first and the last day');
    setRange({ from, to });
  };

  return (
    <section aria-labelledby="fees-title" className="card">
      <div className="bar">
        <h2 id="fees-title">Partner fees of {membership.orgName}</h2>
      </div>
      <p className="hint">
        The partner fees of the swaps submitted with this organisation&apos;s keys and solved, per day (UTC), token and receiver, in the
        token&apos;s smallest unit.
      </p>
      <form onSubmit={submit} className="inline" aria-label="Fee report days">
        <label>
          From
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To (included)
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit">Show fees</button>
        <a className="button secondary" href={`/portal/api${path}?${query}&format=csv`} download>
          Download CSV
        </a>
      </form>
      {error && <p role="alert">{error}</p>}
      {report?.fees.length === 0 && <p data-testid="no-fees">No partner fees in these days.</p>}
      {report && report.fees.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Token</th>
              <th scope="col">Receiver</th>
              <th scope="col">Fees</th>
              <th scope="col">Swaps</th>
            </tr>
          </thead>
          <tbody>
            {report.fees.map((f) => (
              <tr key={`${f.day}/${f.token}/${f.receiver}`}>
                <td>{f.day}</td>
                <td>
                  <code title={f.token}>{short(f.token)}</code>
                </td>
                <td>
                  <code title={f.receiver}>{short(f.receiver)}</code>
                </td>
                <td>{f.amount}</td>
                <td>{f.swaps}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
