import { eventually, unusedPort } from '@swap/testing';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

export const ROOT = join(__dirname, '..', '..', '..');

export interface Spawned {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
  /** The exit code once the process's output is read to its end too (`exited` can come first). */
  finished: Promise<number | null>;
}

/** Runs a built entry point (`dist/...`) as its own process, collecting its output lines. */
export function spawnNode(script: string, env: Record<string, string>, args: string[] = []): Spawned {
  return spawnCommand(process.execPath, [join(ROOT, script), ...args], env);
}

/** Runs a command from the repository's root as its own process, collecting its output lines. */
export function spawnCommand(command: string, args: string[], env: Record<string, string>): Spawned {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout = linesOf(child.stdout!);
  const stderr = linesOf(child.stderr!);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const finished = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout, stderr, exited, finished };
}

/** The stream's non-empty lines, each pushed whole once its newline (or the end) arrives, however the chunks fall. */
function linesOf(stream: Readable): string[] {
  const lines: string[] = [];
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  });
  stream.on('end', () => partial && lines.push(partial));
  return lines;
}

export async function stopProcess(p: Spawned): Promise<number | null> {
  if (p.child.exitCode !== null) return p.child.exitCode;
  p.child.kill('SIGTERM');
  return p.exited;
}

/** A built service (`dist/apps/<name>`) on free ports, once its admin port answers ready. */
export async function startService(name: string, env: Record<string, string>): Promise<{ p: Spawned; url: string; admin: string }> {
  const url = `http://127.0.0.1:${await unusedPort()}`;
  const admin = `http://127.0.0.1:${await unusedPort()}`;
  const p = spawnNode(`dist/apps/${name}/src/main.js`, { ...env, PORT: new URL(url).port, ADMIN_PORT: new URL(admin).port });
  await eventually(async () => (await fetch(`${admin}/readyz`)).status === 200, 30_000, 100);
  return { p, url, admin };
}
