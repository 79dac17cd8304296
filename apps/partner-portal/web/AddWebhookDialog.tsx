import { useRef, useState, type FormEvent } from 'react';
import { api, type WebhookEndpoint, type WebhookEvent } from './api';
import { Modal } from './Modal';

function urlProblem(url: string): string {
  if (!url.trim()) return 'URL is required';
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'URL must start with https://';
  } catch {
    return 'URL must be a full address, like https://hooks.example.com/swaps';
  }
  return '';
}

/** The form that adds an endpoint: its URL, a description, which events. */
export function AddEndpointDialog({
  path,
  onClose,
  onAdded,
}: {
  path: string;
  onClose: () => void;
  onAdded: (created: WebhookEndpoint & { secret: string }) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent>('submission.status');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const sending = useRef(false);
  const problem = urlProblem(url);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (problem || sending.current) return;
    sending.current = true;
    setBusy(true);
    setError('');
    try {
      onAdded(
        await api<WebhookEndpoint & { secret: string }>('POST', path, {
          url: url.trim(),
          ...(description.trim() ? { description: description.trim() } : {}),
          events: [events],
        }),
      );
    } catch (err) {
      setError((err as Error).message);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <Modal labelledBy="add-hook-title" onClose={onClose} busy={busy}>
      <form onSubmit={submit}>
        <h3 id="add-hook-title">Add a webhook endpoint</h3>
        <label>
          Endpoint URL
          <input
            autoFocus
            value={url}
            inputMode="url"
            aria-invalid={touched && Boolean(problem)}
            aria-describedby="hook-url-help"
            onChange={(e) => (setUrl(e.target.value), setTouched(true))}
          />
        </label>
        <p id="hook-url-help" className={touched && problem ? 'invalid' : 'hint'}>
          {touched && problem ? problem : 'An https:// address of your server; it must answer 2xx within 10 s.'}
        </p>
        <label>
          Description (optional)
          <input value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <fieldset>
          <legend>Send</legend>
          <label className="inline">
            <input type="radio" name="events" checked={events === 'submission.status'} onChange={() => setEvents('submission.status')} />{' '}
            every transition
          </label>
          <label className="inline">
            <input
              type="radio"
              name="events"
              checked={events === 'submission.terminal'}
              onChange={() => setEvents('submission.terminal')}
            />{' '}
            solved and failed only
          </label>
        </fieldset>
        {error && <p role="alert">{error}</p>}
        <div className="bar">
          <button type="submit" disabled={busy || Boolean(problem)}>
            Add endpoint
          </button>
          <button type="button" onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </div>
        {busy && <p role="status">Adding the endpoint…</p>}
      </form>
    </Modal>
  );
}

/** A signing secret, shown once (a new endpoint, a rotation). */
export function NewSecret({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="card new-key" role="region" aria-label="Webhook signing secret">
      <p>
        <strong>{title}</strong>
      </p>
      <p className="warn-strong">Copy the signing secret now: it is shown only this once. Verify every delivery with it.</p>
      <code data-testid="webhook-secret">{secret}</code>
      <div className="bar">
        <button type="button" onClick={async () => (await navigator.clipboard.writeText(secret), setCopied(true))}>
          {copied ? 'Copied' : 'Copy secret'}
        </button>
        <button type="button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
