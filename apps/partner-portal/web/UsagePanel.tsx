import { useCallback, useEffect, useRef, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, type ApiKey, type Membership, type ReadinessReport, type UsageReport } from './api';

type Interval = UsageReport['interval'];
type Outcome = keyof UsageReport['totals']['outcomes'];

const SPANS: Record<Interval, string> = { minute: 'Last hour, per minute', hour: 'Last 24 hours, per hour', day: 'Last 30 days, per day' };
/** The key-check outcomes an organisation's requests can have, in the chart's colours. */
const OUTCOMES: { outcome: Outcome; label: string; color: string }[] = [
  { outcome: 'valid', label: 'Valid key', color: '#2f9e44' },
  { outcome: 'scope', label: 'Missing scope', color: '#e8590c' },
  { outcome: 'suspended', label: 'Suspended', color: '#c92a2a' },
];
const STATUS: Record<ReadinessReport['routes'][number]['status'], string> = {
  ready: 'Ready to enforce',
  'too-early': 'Too early',
  'not-ready': 'Not ready',
};
const percent = (share: number) => `${(share * 100).toFixed(share === 1 || share === 0 ? 0 : 2)}%`;
const REFRESH_MS = 10_000;

/** What the organisation's keys did (any member): requests per interval and outcome, per route, and whether each route may be enforced. */
export function UsagePanel({ membership }: { membership: Membership }) {
  const path = `/orgs/${membership.orgId}`;
  const [interval, setInterval_] = useState<Interval>('hour');
  const [keyId, setKeyId] = useState('');
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [usage, setUsage] = useState<UsageReport>();
  const [readiness, setReadiness] = useState<ReadinessReport>();
  const [error, setError] = useState('');

  // Only the latest request's answer is shown: a slow one for the previous period must not overwrite it.
  const latest = useRef(0);
  const loadUsage = useCallback(async () => {
    const asked = ++latest.current;
    try {
      const query = new URLSearchParams({ interval, ...(keyId ? { keyId } : {}) });
      const u = await api<UsageReport>('GET', `${path}/usage?${query}`);
      if (asked !== latest.current) return;
      setUsage(u);
      setError('');
    } catch (e) {
      if (asked === latest.current) setError((e as Error).message);
    }
  }, [path, interval, keyId]);
  // Seven days change slowly: read on opening and on Refresh, not with every poll of the series.
  const loadReadiness = useCallback(() => {
    api<ReadinessReport>('GET', `${path}/usage/readiness`).then(setReadiness, (e: Error) => setError(e.message));
  }, [path]);
  const refresh = () => {
    void loadUsage();
    loadReadiness();
  };

  useEffect(() => {
    void loadUsage();
    const timer = window.setInterval(() => void loadUsage(), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [loadUsage]);
  useEffect(loadReadiness, [loadReadiness]);
  useEffect(() => {
    api<ApiKey[]>('GET', `${path}/keys`).then(setKeys, () => setKeys([]));
  }, [path]);

  const at = (iso: string) =>
    interval === 'day' ? iso.slice(5, 10) : new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const points = usage?.series.map((p) => ({ at: at(p.at), ...p.outcomes }));

  return (
    <section aria-labelledby="usage-title" className="card">
      <div className="bar">
        <h2 id="usage-title">Usage of {membership.orgName}</h2>
        <button type="button" className="secondary" onClick={refresh}>
          Refresh usage
        </button>
      </div>
      <p className="hint">
        Requests made with this organisation&apos;s keys on the swaps API, counted in every enforcement mode and shown within about 15
        seconds. Requests without a key cannot be tied to an organisation and are not shown here.
      </p>
      <div className="inline">
        <label>
          Period
          <select value={interval} onChange={(e) => setInterval_(e.target.value as Interval)}>
            {(Object.keys(SPANS) as Interval[]).map((i) => (
              <option key={i} value={i}>
                {SPANS[i]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Key
          <select value={keyId} onChange={(e) => setKeyId(e.target.value)}>
            <option value="">All keys</option>
            {keys.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name} ({k.prefix}…)
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && <p role="alert">{error}</p>}
      {usage && (
        <>
          <dl className="totals" aria-label="Usage totals">
            <div>
              <dt>Requests</dt>
              <dd data-testid="usage-requests">{usage.totals.requests}</dd>
            </div>
            <div>
              <dt>Error share (4xx and 5xx)</dt>
              <dd data-testid="usage-error-share">{percent(usage.totals.errorShare)}</dd>
            </div>
            {OUTCOMES.map((o) => (
              <div key={o.outcome}>
                <dt>{o.label}</dt>
                <dd data-testid={`usage-${o.outcome}`}>{usage.totals.outcomes[o.outcome]}</dd>
              </div>
            ))}
          </dl>
          <div className="chart" data-testid="usage-chart" role="img" aria-label={`Requests per ${interval}, by key check outcome`}>
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis dataKey="at" fontSize={11} minTickGap={16} />
                <YAxis allowDecimals={false} fontSize={11} />
                <Tooltip />
                <Legend />
                {OUTCOMES.map((o) => (
                  <Bar key={o.outcome} dataKey={o.outcome} name={o.label} stackId="requests" fill={o.color} isAnimationActive={false} />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
          {usage.routes.length > 0 && (
            <table aria-label="Usage per route">
              <thead>
                <tr>
                  <th scope="col">Route</th>
                  <th scope="col">Requests</th>
                  <th scope="col">Error share</th>
                  <th scope="col">Missing scope</th>
                </tr>
              </thead>
              <tbody>
                {usage.routes.map((r) => (
                  <tr key={r.route}>
                    <td>
                      <code>{r.route}</code>
                    </td>
                    <td>{r.requests}</td>
                    <td>{percent((r.clientErrors + r.serverErrors) / r.requests)}</td>
                    <td>{r.outcomes.scope}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <h3>Enforcement readiness</h3>
      <p className="hint">
        Per route over the last 7 days: the share of this organisation&apos;s requests that had the key scope the route needs and were not
        refused as suspended. Ready to enforce: at least {(readiness?.threshold ?? 0.999) * 100}% of them over 7 days, and the first one at
        least 7 days old; enforcing then refuses at most the rest. An operator sets each route&apos;s mode: off (keys not checked), monitor
        (checked, never refused) or enforce.
      </p>
      {readiness && (
        <table aria-label="Enforcement readiness per route">
          <thead>
            <tr>
              <th scope="col">Route</th>
              <th scope="col">Mode now</th>
              <th scope="col">Requests</th>
              <th scope="col">With scope</th>
              <th scope="col">Readiness</th>
            </tr>
          </thead>
          <tbody>
            {readiness.modes.map(({ route, mode }) => {
              const r = readiness.routes.find((x) => x.route === route);
              return (
                <tr key={route}>
                  <td>
                    <code>{route}</code>
                  </td>
                  <td>
                    <span className={`badge mode-${mode}`}>{mode}</span>
                  </td>
                  <td>{r?.identified ?? 0}</td>
                  <td>{r ? percent(r.share) : '–'}</td>
                  <td>
                    {r ? (
                      <>
                        <span className={`badge ${r.status}`}>{STATUS[r.status]}</span>
                        {r.status === 'too-early' && <span className="hint"> since {new Date(r.firstSeen).toLocaleDateString()}</span>}
                      </>
                    ) : (
                      <span className="hint">No requests with this organisation&apos;s keys</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
