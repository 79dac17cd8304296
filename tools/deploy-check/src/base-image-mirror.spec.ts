import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = readFileSync(join(__dirname, '../../../docker/base-image.sh'), 'utf8');
const START = SCRIPT.indexOf('apt_mirror() {');
/** docker/base-image.sh's apt_mirror function, run alone over a made-up /etc/apt. */
const FUNCTION = SCRIPT.slice(START, SCRIPT.indexOf('\n}\n', START) + 3);

const DEBIAN = [
  'Types: deb\nURIs: http://mirror.example.test/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg',
  'Types: deb\nURIs: http://security.example.test/debian-security\nSuites: bookworm-security\nComponents: main',
].join('\n\n');

/** What the script's own line makes of it, under its own shell options (set -euo pipefail): the mirror, or the failure. */
function mirrorOf(files: Record<string, string>): { mirror: string } | { failed: string } {
  const etc = mkdtempSync(join(tmpdir(), 'apt-etc-'));
  try {
    mkdirSync(join(etc, 'sources.list.d'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(etc, name), text);
    const program = `set -euo pipefail\n${FUNCTION}\nMIRROR=\${DEBIAN_MIRROR:-$(apt_mirror)}\nprintf '%s' "$MIRROR"`;
    return { mirror: execFileSync('bash', ['--norc', '-c', program], { env: { PATH: process.env.PATH, APT_ETC: etc } }).toString() };
  } catch (error) {
    return { failed: String((error as { status?: number }).status) };
  } finally {
    rmSync(etc, { recursive: true, force: true });
  }
}

describe('docker/base-image.sh takes its Debian archive from the machine’s apt sources', () => {
  it('names no mirror host of its own, and assigns it with the line under test', () => {
    expect(SCRIPT).not.toMatch(/MIRROR=\$\{DEBIAN_MIRROR:-http/);
    expect(SCRIPT).toContain('MIRROR=${DEBIAN_MIRROR:-$(apt_mirror)}');
    expect(SCRIPT).toContain('set -euo pipefail');
  });

  it('reads the Debian archive of a deb822 .sources file, not its security archive', () => {
    expect(mirrorOf({ 'sources.list.d/debian.sources': DEBIAN })).toEqual({ mirror: 'http://mirror.example.test/debian' });
  });

  it('is not thrown off by other repositories of the same suite, in files read before or after it', () => {
    const docker = 'Types: deb\nURIs: https://download.docker.com/linux/debian\nSuites: bookworm\nComponents: stable';
    expect(
      mirrorOf({
        'sources.list.d/0-docker.sources': docker,
        'sources.list.d/debian.sources': DEBIAN,
        'sources.list.d/docker.list':
          'deb [arch=amd64 signed-by=/etc/apt/keyrings/docker.gpg] https://download.docker.com/linux/debian bookworm stable\n',
        'sources.list': 'deb http://second.example.test/debian bookworm main\n',
      }),
    ).toEqual({ mirror: 'http://mirror.example.test/debian' });
  });

  it('skips a disabled stanza, also when a line of spaces separates the stanzas', () => {
    const sources =
      'Types: deb\nURIs: http://off.example.test/debian\nSuites: bookworm\nComponents: main\nEnabled: no\n   \nTypes: deb\nURIs: http://on.example.test/debian\nSuites: bookworm\nComponents: main\n';
    expect(mirrorOf({ 'sources.list.d/debian.sources': sources })).toEqual({ mirror: 'http://on.example.test/debian' });
  });

  it('reads a URIs value folded onto the next line', () => {
    const sources = 'Types: deb\nURIs:\n http://folded.example.test/debian\nSuites: bookworm\nComponents: main contrib\n';
    expect(mirrorOf({ 'sources.list.d/debian.sources': sources })).toEqual({ mirror: 'http://folded.example.test/debian' });
  });

  it('reads one-line lists, with no option, one, or several in brackets, and a host of another release (any Debian archive serves bookworm)', () => {
    expect(mirrorOf({ 'sources.list': 'deb http://plain.example.test/debian bookworm main\n' })).toEqual({
      mirror: 'http://plain.example.test/debian',
    });
    expect(
      mirrorOf({
        'sources.list':
          '# a comment\ndeb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://opts.example.test/debian/ trixie main contrib\n',
      }),
    ).toEqual({ mirror: 'http://opts.example.test/debian/' });
  });

  it('finds nothing where apt names no Debian archive (the script then asks for DEBIAN_MIRROR), without failing', () => {
    expect(mirrorOf({ 'sources.list': 'deb http://archive.ubuntu.test/ubuntu jammy main\n' })).toEqual({ mirror: '' });
    expect(mirrorOf({})).toEqual({ mirror: '' });
    expect(SCRIPT).toContain('set DEBIAN_MIRROR to one');
  });
});
