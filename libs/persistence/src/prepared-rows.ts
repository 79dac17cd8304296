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
}

const shapes = new WeakMap<Connection, Map<string, Shape>>();

/** A named statement's rows as `client.query` gives them, its columns described once per connection, not on every run (docs/development.md#the-explorer-part). */
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

  submit(pgConnection: pg.Connection): void {
    const connection = pgConnection as unknown as Connection;
    let known = shapes.get(connection);
    if (!known) shapes.set(connection, (known = new Map()));
    const parsed = connection.parsedStatements[this.name] !== undefined || connection.submittedNamedStatements[this.name] !== undefined;
    this.shape = parsed ? known.get(this.name) : undefined;
    connection.stream.cork?.();
    try {
      if (!parsed) {
        connection.parse({ text: this.text, name: this.name, types: [] });
        connection.submittedNamedStatements[this.name] = this.text;
      }
      connection.bind({ portal: '', statement: this.name, values: this.values, binary: false, valueMapper: prepareValue });
      if (!this.shape) connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '', rows: 0 });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    this.known = known;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    this.shape = {
      names: message.fields.map((f) => f.name),
      parsers: message.fields.map((f) => pg.types.getTypeParser(f.dataTypeID, (f.format ?? 'text') as 'text')),
    };
    this.known?.set(this.name, this.shape);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failure) return;
    const { names, parsers } = this.shape ?? { names: [], parsers: [] };
    if (names.length !== message.fields.length) {
      this.failure = new Error(`prepared statement ${this.name} answered ${message.fields.length} columns, described ${names.length}`);
      return;
    }
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const value = message.fields[i];
      row[names[i]!] = value === null ? null : parsers[i]!(value);
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
