import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { unusedPort } from './infra';

const NATS_SERVER = '/usr/sbin/nats-server';

export interface TestNatsServerOptions {
  /** After listen and the JetStream store. */
  config?: string[];
  /** Copied beside the configuration (an included authorization block). */
  files?: string[];
  env?: Record<string, string>;
}

/** Stopped (gracefully or killed) and started again on the same port. */
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

  /** SIGKILL is a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await within(this.exited!, 10_000, 'nats-server to stop').catch(() => child.kill('SIGKILL'));
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
