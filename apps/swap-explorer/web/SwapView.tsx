import { createContext, useContext, useEffect, useState } from 'react';
import type { HubAsset, Intent, Submission, SwapLookup } from './api';
import { advice, amount, cancelBody, duration, partnerFee, STATUS_LABELS, when, withTimesWritten } from './format';

interface Props {
  swap: SwapLookup;
  assets: Map<string, HubAsset>;
}

/** Chain names by key (GET /v1/be/config/chains); empty until they arrive. */
export const ChainNames = createContext<Map<string, string>>(new Map());

/** A chain as a support desk reads it: its name, then the key the API takes. */
function ChainName({ chainKey, unknown = 'an unknown chain' }: { chainKey: string | null | undefined; unknown?: string }) {
  const name = useContext(ChainNames).get(chainKey ?? '');
  if (!chainKey) return <>{unknown}</>;
  return name && name !== chainKey ? (
    <>
      {name} · <span className="chain-key">{chainKey}</span>
    </>
  ) : (
    <span className="chain-key">{chainKey}</span>
  );
}

/** A swap: where it stands, what went wrong and what to do, its amounts and solver, its steps with their durations, its transactions. */
export function SwapView({ swap, assets }: Props) {
  const { submission, intent, source, addresses } = swap;
  return (
    <>
      {submission ? <StatusCard submission={submission} intent={intent} /> : <IntentStatusCard intent={intent!} />}
      {intent && <AmountsCard intent={intent} addresses={addresses} assets={assets} ended={submission?.terminal ?? false} />}
      {submission ? <Timeline submission={submission} /> : <IntentTimeline intent={intent!} />}
      <Transactions source={source} submission={submission} intent={intent} />
    </>
  );
}

/** Milliseconds since a time, ticking every second while a swap is in flight. */
function useSince(iso: string, running: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [running]);
  return Math.max(0, now - Date.parse(iso));
}

function StatusCard({ submission, intent }: { submission: Submission; intent: Intent | null }) {
  const handed = submission.history[0]?.at ?? submission.createdAt;
  // A swap handed over late (adopted, or submitted after the fact) began when the hub created its intent.
  const late = intent !== null && Date.parse(intent.timestamp) < Date.parse(handed) - 1_000;
  const first = late ? intent.timestamp : handed;
  const last = submission.history.at(-1)?.at ?? submission.updatedAt;
  const inFlight = !submission.terminal;
  const sinceLast = useSince(last, inFlight);
  const total = submission.terminal ? Date.parse(last) - Date.parse(first) : Date.parse(last) - Date.parse(first) + sinceLast;
  const help = advice(submission, intent?.open);
  return (
    <section className="card" aria-labelledby="status-title">
      <h2 id="status-title">
        <span className={`badge ${submission.status}`} data-testid="status">
          {inFlight ? 'In flight' : STATUS_LABELS[submission.status]}
        </span>{' '}
        {inFlight && <span data-testid="step">{STATUS_LABELS[submission.status]}</span>}
      </h2>
      <p className="hint">
        {submission.terminal ? 'Took' : 'Running for'} {duration(total)} · started {when(first)} · from{' '}
        <ChainName chainKey={submission.srcChainKey} />
        {inFlight && <span className="live"> · following live</span>}
      </p>
      {late && (
        <p className="hint" data-testid="late">
          Handed to this platform {duration(Date.parse(handed) - Date.parse(first))} after the hub created its intent (
          {when(intent.timestamp)}): the steps below start then.
        </p>
      )}
      {submission.status === 'failed' && (
        <div className="failure" role="alert">
          <p>
            <strong>Why it failed:</strong> {submission.userMessage ? withTimesWritten(submission.userMessage) : 'No reason was recorded.'}
            {submission.failedAtStep && <> (at “{STATUS_LABELS[submission.failedAtStep]}”)</>}
            {submission.intentCancelled && <> Since then the intent was cancelled and its input refunded.</>}
          </p>
          {help && (
            <p data-testid="advice">
              <strong>What to do:</strong> {help}
            </p>
          )}
          {intent?.open && (
            <details>
              <summary>The cancel request body</summary>
              <pre data-testid="cancel-body">{cancelBody(submission.srcChainKey, intent.intent)}</pre>
            </details>
          )}
        </div>
      )}
    </section>
  );
}

function IntentStatusCard({ intent }: { intent: Intent }) {
  const state = intent.cancelled ? 'Cancelled' : intent.open ? 'Open on the hub' : 'Filled';
  return (
    <section className="card">
      <h2>
        <span className={`badge ${intent.open ? 'posted_execution' : intent.cancelled ? 'failed' : 'solved'}`} data-testid="status">
          {state}
        </span>
      </h2>
      <p className="hint">
        Not submitted to this platform: the hub's record of its intent, created {when(intent.timestamp)} on{' '}
        <ChainName chainKey={intent.chainKey} />.
      </p>
    </section>
  );
}

function AmountsCard({
  intent,
  addresses,
  assets,
  ended,
}: {
  intent: Intent;
  addresses: SwapLookup['addresses'];
  assets: Map<string, HubAsset>;
  ended: boolean;
}) {
  const input = assets.get(intent.intent.inputToken.toLowerCase());
  const output = assets.get(intent.intent.outputToken.toLowerCase());
  const solvers = [...new Set(intent.events.filter((e) => e.solver).map((e) => e.solver!))];
  const received = intent.intentState.receivedOutput;
  const fee = partnerFee(intent.intent.data);
  const deadline = Number(intent.intent.deadline);
  return (
    <section className="card" aria-labelledby="amounts-title">
      <h2 id="amounts-title">Amounts and parties</h2>
      <dl className="facts">
        <dt>{fee ? 'Swapped' : 'Sent'}</dt>
        <dd data-testid="sent">
          {amount(intent.intent.inputAmount, input)} from <ChainName chainKey={intent.srcChainKey} />
        </dd>
        {fee && (
          <>
            <dt>Partner fee</dt>
            <dd data-testid="fee">
              {amount(fee.amount, input)} to <code>{fee.receiver}</code>, on top:{' '}
              {amount((BigInt(intent.intent.inputAmount) + BigInt(fee.amount)).toString(), input)} left the wallet in all
            </dd>
          </>
        )}
        <dt>At least</dt>
        <dd>
          {amount(intent.intent.minOutputAmount, output)} to <ChainName chainKey={intent.dstChainKey} />
        </dd>
        <dt>Received</dt>
        <dd data-testid="received">{received !== '0' ? amount(received, output) : ended || !intent.open ? 'nothing' : 'nothing yet'}</dd>
        <dt>Solver</dt>
        <dd data-testid="solver">
          {solvers.length ? solvers.map((s) => <code key={s}>{s}</code>) : ended || !intent.open ? 'none' : 'none yet'}
        </dd>
        <dt>From</dt>
        <dd>
          <code data-testid="from">{addresses?.from ?? intent.intent.srcAddress}</code>
        </dd>
        <dt>To</dt>
        <dd>
          <code data-testid="to">{addresses?.to ?? intent.intent.dstAddress}</code>
        </dd>
        <dt>Deadline</dt>
        <dd data-testid="deadline">{deadline === 0 ? 'none' : when(new Date(deadline * 1000).toISOString())}</dd>
        <dt>Intent hash</dt>
        <dd>
          <code data-testid="intent-hash">{intent.intentHash}</code>
        </dd>
      </dl>
    </section>
  );
}

/** Each status the swap entered, when, how long it stayed there (the step it stands in now: so far, ticking), and what happened. */
function Timeline({ submission }: { submission: Submission }) {
  const history = submission.history;
  const last = history.at(-1);
  const sofar = useSince(last?.at ?? submission.updatedAt, !submission.terminal);
  const took = (i: number): string => {
    const next = history[i + 1];
    if (next) return `took ${duration(next.durationMs)}`;
    return submission.terminal ? 'end' : `${duration(sofar)} so far`;
  };
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Steps</h2>
      <ol className="timeline" data-testid="timeline">
        {history.map((step, i) => (
          <li key={`${step.status}-${i}`} className={`${step.status}${i === history.length - 1 && !submission.terminal ? ' current' : ''}`}>
            <span className="step">{STATUS_LABELS[step.status]}</span>
            <span className="took">{took(i)}</span>
            <span className="time">{when(step.at)}</span>
            <span className="detail">{step.detail}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

const EVENT_LABELS = { IntentCreated: 'Intent created on the hub', IntentFilled: 'Filled by a solver', IntentCancelled: 'Cancelled' };

function IntentTimeline({ intent }: { intent: Intent }) {
  return (
    <section className="card" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Steps on the hub</h2>
      <ol className="timeline" data-testid="timeline">
        {intent.events.map((e, i) => (
          <li key={`${e.txHash}-${i}`}>
            <span className="step">{EVENT_LABELS[e.event]}</span>
            <span className="took">
              {intent.events[i + 1] ? `took ${duration(Date.parse(intent.events[i + 1]!.timestamp) - Date.parse(e.timestamp))}` : 'latest'}
            </span>
            <span className="time">{when(e.timestamp)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Transactions({ source, submission, intent }: Pick<SwapLookup, 'source' | 'submission' | 'intent'>) {
  // [step, chain key (undefined: not known here), what to call an unknown one, hash]
  const hub = intent?.chainKey;
  const rows: [string, string | null | undefined, string, string][] = [];
  if (source) rows.push(['Source (the user’s)', source.chainKey, 'the source', source.txHash]);
  const created = submission?.result?.hubTxHash ?? intent?.txHash;
  if (created && created !== source?.txHash) rows.push(['Intent created', hub, 'the hub', created]);
  const fills = intent?.events.filter((e) => e.event === 'IntentFilled').map((e) => e.txHash) ?? [];
  for (const fill of new Set([...fills, ...(submission?.result?.fillTxHash ? [submission.result.fillTxHash] : [])]))
    rows.push(['Filled', hub, 'the hub', fill]);
  if (submission?.result?.deliveryTxHash)
    rows.push(['Delivered', intent?.dstChainKey, 'the destination', submission.result.deliveryTxHash]);
  for (const e of intent?.events.filter((x) => x.event === 'IntentCancelled') ?? []) rows.push(['Cancelled', hub, 'the hub', e.txHash]);
  return (
    <section className="card" aria-labelledby="txs-title">
      <h2 id="txs-title">Transactions</h2>
      <table className="txs" data-testid="transactions">
        <thead>
          <tr>
            <th>Step</th>
            <th>Chain</th>
            <th>Hash</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([step, chain, unknown, hash]) => (
            <tr key={`${step}-${hash}`}>
              <td>{step}</td>
              <td>
                <ChainName chainKey={chain} unknown={unknown} />
              </td>
              <td>
                <code>{hash}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
