import { Writable } from 'node:stream';

export interface LogLine {
  level: string;
  service: string;
  msg?: string;
  requestId?: string;
  [key: string]: unknown;
}

/** A pino destination that keeps every JSON line, for tests that assert on logs. */
export class LogCapture extends Writable {
  readonly lines: LogLine[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim()) this.lines.push(JSON.parse(line) as LogLine);
    }
    callback();
  }

  where(predicate: (line: LogLine) => boolean): LogLine[] {
    return this.lines.filter(predicate);
  }
}
