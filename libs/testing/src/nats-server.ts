import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { unusedPort } from './infra';

const NATS_SERVER = '/usr/sbin/nats-server';

export interface TestNatsServerOptions {
  /** Lines of its configuration (listen and the JetStream store are written first). */
  config?: string[];
  /** Files copied beside the configuration (an included authorization block). */
  files?: string[];
  /** Its environment, added to this process's (public keys an authorization block reads). */
  env?: Record<string, string>;
}

/**
 * A nats-server of a test's own, on a port of its own, with JetStream, that the test can
 * stop (gracefully or killed) and start again on the same port with the same configuration.
 */
export class TestNatsServer {
  private child?: ChildProcess;
  private exited?: Promise<void>;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(options: TestNatsServerOptions = {}): Promise<TestNatsServer> {
    const dir = mkdtempSync(join(tmpdir(), 'test-nats-'));
    const port = await unusedPort();
    for (const file of options.files ?? []) copyFileSync(file, join(dir, basename(file)));
    writeFileSync(
      join(dir, 'server.conf'),
      [`listen: "127.0.0.1:${port}"`, `jetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }`, ...(options.config ?? []), ''].join(
        '\n',
      ),
    );
    const server = new TestNatsServer(port, dir, options.env ?? {});
    await server.resume();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts it again after stop(), on the same port; resolves once it says it is ready. */
  async resume(): Promise<void> {
    const child = spawn(NATS_SERVER, ['-c', join(this.dir, 'server.conf')], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let log = '';
    await within(
      new Promise<void>((resolve, reject) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          log += chunk.toString();
          if (log.includes('Server is ready')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`nats-server exited (${code}): ${log}`)));
      }),
      10_000,
      'nats-server to start',
    );
  }

  /** Stops it: SIGTERM lets it close its clients, SIGKILL is a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await within(this.exited!, 10_000, 'nats-server to stop').catch(() => child.kill('SIGKILL'));
  }

  /** Stops it and removes its files. */
  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Bounds a wait on an event (it is not a sleep: it resolves as soon as the event does). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
