import pg from 'pg';
// pg's own conversion of a parameter (dates, buffers, arrays, JSON) into its text, as its Query uses it.
import { prepareValue } from 'pg/lib/utils';

/** The parts of pg's connection a query speaks through (what pg's own Query and pg-cursor use). */
interface Connection {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse(query: { text: string; name: string; types: number[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[]; binary: boolean; valueMapper: (value: unknown) => unknown }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  sync(): void;
}

interface Field {
  name: string;
  dataTypeID: number;
  format?: string;
}

interface Shape {
  names: string[];
  parsers: ((text: string) => unknown)[];
  /** No column named `__proto__`, which an assignment would take for the row's prototype. */
  plain: boolean;
}

const shapes = new WeakMap<Connection, Map<string, Shape>>();

/** A named statement's rows as `client.query` gives them (pg's global type parsers), its columns described once per connection, not on every run (docs/development.md#the-explorer-part). */
export function preparedRows<R>(client: pg.ClientBase, name: string, text: string, values: unknown[]): Promise<R[]> {
  return new Promise<R[]>((resolve, reject) => {
    void client.query<PreparedRows<R>>(new PreparedRows<R>(name, text, values, (error, rows) => (error ? reject(error) : resolve(rows!))));
  });
}

class PreparedRows<R> implements pg.Submittable {
  private shape?: Shape;
  private known?: Map<string, Shape>;
  private rows: R[] = [];
  private failure?: Error;

  constructor(
    private readonly name: string,
    private readonly text: string,
    private readonly values: unknown[],
    public callback: (error: Error | undefined, rows?: R[]) => void,
  ) {}

  /** An Error returned is given to handleError by pg's client; nothing is sent then. */
  submit(pgConnection: pg.Connection): Error | null {
    const connection = pgConnection as unknown as Connection;
    const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (previous !== undefined && previous !== this.text)
      return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
    let values: unknown[];
    try {
      values = this.values.map((value) => prepareValue(value));
    } catch (error) {
      return error as Error;
    }
    let known = shapes.get(connection);
    if (!known) shapes.set(connection, (known = new Map()));
    this.known = known;
    this.shape = previous === undefined ? undefined : known.get(this.name);
    connection.stream.cork?.();
    try {
      if (previous === undefined) {
        connection.parse({ text: this.text, name: this.name, types: [] });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ portal: '', statement: this.name, values, binary: false, valueMapper: (value) => value });
      if (!this.shape) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    const names = message.fields.map((f) => f.name);
    this.shape = {
      names,
      parsers: message.fields.map((f) => pg.types.getTypeParser(f.dataTypeID, (f.format ?? 'text') as 'text')),
      plain: !names.includes('__proto__'),
    };
    this.known?.set(this.name, this.shape);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failure) return;
    const { names, parsers, plain } = this.shape ?? { names: [], parsers: [], plain: true };
    if (names.length !== message.fields.length) {
      this.failure = new Error(`prepared statement ${this.name} answered ${message.fields.length} columns, described ${names.length}`);
      return;
    }
    const row: Record<string, unknown> = {};
    try {
      for (let i = 0; i < names.length; i++) {
        const value = message.fields[i];
        const parsed = value === null ? null : parsers[i]!(value);
        if (plain) row[names[i]!] = parsed;
        else Object.defineProperty(row, names[i]!, { value: parsed, enumerable: true, writable: true, configurable: true });
      }
    } catch (error) {
      this.failure = error as Error;
      return;
    }
    this.rows.push(row as R);
  }

  handleCommandComplete(): void {}

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(): void {}

  handleCopyData(): void {}

  handleError(error: Error): void {
    this.known?.delete(this.name);
    this.callback(this.failure ?? error);
  }

  handleReadyForQuery(): void {
    if (this.failure) this.known?.delete(this.name);
    this.callback(this.failure, this.rows);
  }
}
