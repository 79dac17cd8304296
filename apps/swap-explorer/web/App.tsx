import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { ApiError, chainNames, follow, hubAssets, lookup, type HubAsset, type SwapLookup } from './api';
import { ChainNames, SwapView } from './SwapView';

/** Any network's transaction id (EVM and ICON 0x-hex, Stellar and Injective hex, Solana and Sui base58) or an intent hash. */
const HASH = /^(0x[0-9a-fA-F]{64}|[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,88})$/;

const NOT_A_HASH = 'Paste a transaction hash of any network (0x and 64 hex digits, 64 hex digits, or base58) or an intent hash.';

/** The hash in the address (/explorer/tx/<hash>), if any. */
function hashInPath(): string {
  const match = /\/explorer\/tx\/([^/?#]+)/.exec(window.location.pathname);
  if (!match) return '';
  try {
    return decodeURIComponent(match[1]!).trim();
  } catch {
    return match[1]!; // not percent-encoding: refused below as not a hash
  }
}

type View = { kind: 'idle' } | { kind: 'loading' } | { kind: 'found'; swap: SwapLookup } | { kind: 'error'; message: string };

/** The swap timeline page: paste a source or hub transaction hash (or an intent hash), see the swap's steps. */
export function App() {
  const [input, setInput] = useState(hashInPath());
  const [hash, setHash] = useState(hashInPath());
  const [view, setView] = useState<View>({ kind: 'idle' });
  const [assets, setAssets] = useState<Map<string, HubAsset>>(new Map());
  const [names, setNames] = useState<Map<string, string>>(new Map());

  useEffect(() => {
    hubAssets().then(setAssets, () => undefined);
    chainNames().then(setNames, () => undefined); // without them, chains show as their keys
    const onPop = () => {
      setInput(hashInPath());
      setHash(hashInPath());
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const load = useCallback(async (target: string) => {
    try {
      return await lookup(target);
    } catch (error) {
      setView({
        kind: 'error',
        message:
          error instanceof ApiError && error.status === 404
            ? `No swap found for ${target}. Nothing submitted to this platform has it, and no intent, deposit, fill or delivery the platform has indexed does. A transaction just mined takes a few seconds to be indexed: try again shortly.`
            : (error as Error).message,
      });
      return undefined;
    }
  }, []);

  useEffect(() => {
    if (!hash) {
      setView({ kind: 'idle' });
      return;
    }
    if (!HASH.test(hash)) {
      setView({ kind: 'error', message: NOT_A_HASH });
      return;
    }
    let stop: (() => void) | undefined;
    let cancelled = false;
    // One read at a time; changes arriving during it (a replayed history) make one more after it.
    let reading = false;
    let again = false;
    const reread = () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      void lookup(hash)
        .then(
          // The submission stays the newest the stream gave (the view's own).
          (read) =>
            !cancelled && setView((v) => (v.kind === 'found' ? { kind: 'found', swap: { ...read, submission: v.swap.submission } } : v)),
          () => undefined,
        )
        .finally(() => {
          reading = false;
          if (again && !cancelled) {
            again = false;
            reread();
          }
        });
    };
    setView({ kind: 'loading' });
    void load(hash).then((found) => {
      if (cancelled || !found) return;
      setView({ kind: 'found', swap: found });
      const submission = found.submission;
      if (!submission || submission.terminal) return;
      // In flight: each transition as it happens; the intent's hub side read again with each.
      stop = follow(submission, (latest, read) => {
        setView((v) => (v.kind === 'found' ? { kind: 'found', swap: { ...(read ?? v.swap), submission: latest } } : v));
        if (!read) reread();
      });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [hash, load]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = input.trim();
    // Refused or not, the address says what was asked (a reload shows the same).
    window.history.pushState(null, '', `/explorer/tx/${encodeURIComponent(target)}`);
    setHash(target);
  };

  return (
    <main>
      <h1>Swap explorer</h1>
      <p className="hint">
        Paste the transaction a swap started with (on any chain), the hub transaction that created its intent, or its intent hash.
      </p>
      <form className="search" onSubmit={submit} role="search">
        <label className="sr-only" htmlFor="hash">
          Transaction or intent hash
        </label>
        <input
          id="hash"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          placeholder="0x… transaction or intent hash"
          spellCheck={false}
          autoComplete="off"
        />
        <button type="submit">Look up</button>
      </form>
      {view.kind === 'loading' && <p role="status">Looking up…</p>}
      {view.kind === 'error' && <p role="alert">{view.message}</p>}
      {view.kind === 'found' && (
        <ChainNames.Provider value={names}>
          <SwapView swap={view.swap} assets={assets} />
        </ChainNames.Provider>
      )}
    </main>
  );
}
