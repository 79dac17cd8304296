import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brokenLinks, markdownFiles } from './links';

const root = join(__dirname, '..', '..', '..');

describe("the repository's Markdown", () => {
  it('has no dead link and no missing #anchor (README.md, docs/, every other *.md)', () => {
    const files = markdownFiles(root);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/index.md']));
    expect(brokenLinks(root, files)).toEqual([]);
  });

  it('keeps README.md under 200 lines (the rest lives in docs/)', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').match(/\n/g)?.length ?? 0;
    expect(lines).toBeLessThan(200);
  });
});
