import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = readFileSync(join(__dirname, '../../../docker/base-image.sh'), 'utf8');
/** docker/base-image.sh's apt_mirror function, run alone over a made-up /etc/apt. */
const FUNCTION = SCRIPT.slice(SCRIPT.indexOf('apt_mirror() {'), SCRIPT.indexOf('\n}\n', SCRIPT.indexOf('apt_mirror() {')) + 3);

function mirrorOf(files: Record<string, string>): string {
  const etc = mkdtempSync(join(tmpdir(), 'apt-etc-'));
  try {
    mkdirSync(join(etc, 'sources.list.d'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(etc, name), text);
    return execFileSync('bash', ['-c', `${FUNCTION}\napt_mirror | head -n 1`], { env: { PATH: process.env.PATH, APT_ETC: etc } })
      .toString()
      .trim();
  } finally {
    rmSync(etc, { recursive: true, force: true });
  }
}

describe('docker/base-image.sh takes its Debian archive from the machine’s apt sources', () => {
  it('names no mirror host of its own', () => {
    expect(SCRIPT).not.toMatch(/MIRROR=\$\{DEBIAN_MIRROR:-http/);
    expect(FUNCTION).toContain('apt_mirror() {');
  });

  it('reads the bookworm stanza of a deb822 .sources file, not the security one before it', () => {
    const sources = [
      'Types: deb\nURIs: http://security.example.test/debian-security\nSuites: bookworm-security\nComponents: main',
      'Types: deb\nURIs: http://mirror.example.test/debian\nSuites: bookworm bookworm-updates\nComponents: main',
    ].join('\n\n');
    expect(mirrorOf({ 'sources.list.d/debian.sources': sources })).toBe('http://mirror.example.test/debian');
  });

  it('skips a disabled stanza', () => {
    const sources = [
      'Types: deb\nURIs: http://off.example.test/debian\nSuites: bookworm\nEnabled: no',
      'Types: deb\nURIs: http://on.example.test/debian\nSuites: bookworm',
    ].join('\n\n');
    expect(mirrorOf({ 'sources.list.d/debian.sources': sources })).toBe('http://on.example.test/debian');
  });

  it('reads a one-line sources.list, with or without options', () => {
    expect(mirrorOf({ 'sources.list': 'deb http://plain.example.test/debian bookworm main\n' })).toBe('http://plain.example.test/debian');
    expect(
      mirrorOf({
        'sources.list': '# a comment\ndeb [signed-by=/usr/share/keyrings/k.gpg] http://opts.example.test/debian bookworm main contrib\n',
      }),
    ).toBe('http://opts.example.test/debian');
  });

  it('finds nothing where apt has no bookworm archive (the script then asks for DEBIAN_MIRROR)', () => {
    expect(mirrorOf({ 'sources.list': 'deb http://old.example.test/debian bullseye main\n' })).toBe('');
    expect(SCRIPT).toContain('set DEBIAN_MIRROR to one');
  });
});
