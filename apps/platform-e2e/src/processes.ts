import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

export interface Spawned {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
}

/** Runs a built entry point (`dist/...`) as its own process, collecting its output lines. */
export function spawnNode(script: string, env: Record<string, string>, args: string[] = []): Spawned {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout!.on('data', (c: Buffer) => stdout.push(...c.toString().split('\n').filter(Boolean)));
  child.stderr!.on('data', (c: Buffer) => stderr.push(...c.toString().split('\n').filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout, stderr, exited };
}

export async function stopProcess(p: Spawned): Promise<number | null> {
  if (p.child.exitCode !== null) return p.child.exitCode;
  p.child.kill('SIGTERM');
  return p.exited;
}
