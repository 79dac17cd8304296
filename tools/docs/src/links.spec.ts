import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anchorsOf, brokenLinks, linksOf, slugify } from './links';

describe('slugify: GitHub heading anchors', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['Securing the bus', 'securing-the-bus'],
    ['Settlement: from submit-tx to solved', 'settlement-from-submit-tx-to-solved'],
    ['`submit-tx` limits (429)', 'submit-tx-limits-429'],
    ['Keys & epochs', 'keys--epochs'],
    ['NATS_URL and *TLS*', 'nats_url-and-tls'],
    ['What [the docs](../x.md) say', 'what-the-docs-say'],
    ['Ärger, naïve café', 'ärger-naïve-café'],
    ['1. Make the keys', '1-make-the-keys'],
    ['A → B', 'a--b'],
  ])('%s → %s', (heading, slug) => {
    expect(slugify(heading)).toBe(slug);
  });
});

describe('anchorsOf', () => {
  it('numbers repeated headings -1, -2 and skips headings inside fenced code', () => {
    const markdown = ['# Title', '## Notes', '```sh', '# not a heading', '```', '## Notes', '### Notes ##', '<a id="kept-anchor"></a>'].join('\n');
    expect([...anchorsOf(markdown)].sort()).toEqual(['kept-anchor', 'notes', 'notes-1', 'notes-2', 'title']);
  });
});

describe('linksOf', () => {
  it('finds inline links, images, definitions, autolinks and HTML links, not code', () => {
    const markdown = [
      'See [a](a.md#x "title") and ![b](img/b.png), `[not](code.md)`.',
      '<https://example.com/y> and <a href="c.md">c</a>',
      '[ref]: ./d.md',
      '```md',
      '[inside](fence.md)',
      '```',
      '[paren](https://en.wikipedia.org/wiki/X_(y))',
    ].join('\n');
    expect(linksOf(markdown)).toEqual([
      { target: 'a.md#x', line: 1 },
      { target: 'img/b.png', line: 1 },
      { target: 'https://example.com/y', line: 2 },
      { target: 'c.md', line: 2 },
      { target: './d.md', line: 3 },
      { target: 'https://en.wikipedia.org/wiki/X_(y)', line: 7 },
    ]);
  });
});

describe('brokenLinks', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'links-'));
    mkdirSync(join(root, 'docs'));
    mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'x', 'README.md'), '[ignored](nowhere.md)');
    writeFileSync(join(root, 'code.ts'), '');
    writeFileSync(join(root, 'docs', 'page.md'), '# Page\n## Two words\n## Two words\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '# Read me',
        '[ok](docs/page.md#two-words-1) [ok](#read-me) [ok](code.ts#L3) [ok](https://example.com/a?b=c)',
        '[gone](docs/missing.md) [anchor](docs/page.md#three-words) [self](#nope)',
        '[bad port](https://example.com:99999/) [no host](https:/example.com) [outside](../elsewhere.md) [scheme](ftp://x.org/f) [root](/docs/page.md)',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names the file, line, link and reason of each broken link, and skips node_modules', () => {
    expect(brokenLinks(root)).toEqual([
      'README.md:3: docs/missing.md: no such file: docs/missing.md',
      'README.md:3: docs/page.md#three-words: no heading with the anchor #three-words in docs/page.md',
      'README.md:3: #nope: no heading with the anchor #nope in this file',
      'README.md:4: https://example.com:99999/: not a valid URL',
      'README.md:4: https:/example.com: not a valid URL: https:// and a host expected',
      'README.md:4: ../elsewhere.md: points outside the repository',
      'README.md:4: ftp://x.org/f: unexpected scheme "ftp:" (only http, https and mailto links are allowed)',
      'README.md:4: /docs/page.md: a path from the site root: write it relative to this file',
    ]);
  });
});
