export interface StreamedEvent {
  id?: string;
  event?: string;
  data: string;
  /** Milliseconds since the stream was opened. */
  receivedAt: number;
}

export interface StreamRead {
  status: number;
  contentType: string | null;
  events: StreamedEvent[];
  comments: string[];
  ended: boolean;
  broken: boolean;
}

/** The WHATWG format, enough for tests of the platform's streams: not a general client. */
export async function readEventStream(
  url: string,
  options: { headers?: Record<string, string>; timeoutMs?: number; until?: (read: StreamRead) => boolean } = {},
): Promise<StreamRead> {
  const started = Date.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs ?? 30_000);
  const res = await fetch(url, { headers: options.headers, signal: abort.signal });
  const read: StreamRead = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events: [],
    comments: [],
    ended: false,
    broken: false,
  };
  if (!res.body || !read.contentType?.startsWith('text/event-stream')) {
    clearTimeout(timer);
    await res.body?.cancel();
    return read;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  let pending: Partial<StreamedEvent> & { data?: string } = {};
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (pending.data !== undefined) read.events.push({ ...pending, data: pending.data, receivedAt: Date.now() - started });
          pending = {};
        } else if (line.startsWith(':')) {
          read.comments.push(line.slice(1));
        } else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'data') pending.data = pending.data === undefined ? value : `${pending.data}\n${value}`;
          else if (field === 'id' || field === 'event') pending[field] = value;
        }
      }
      if (options.until?.(read)) {
        abort.abort();
        return read;
      }
    }
    read.ended = true;
  } catch {
    if (!abort.signal.aborted) read.broken = true;
  } finally {
    clearTimeout(timer);
  }
  return read;
}
