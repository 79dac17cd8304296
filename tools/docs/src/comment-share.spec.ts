import { join } from 'node:path';
import { commentShare } from './comment-share';
import { sourceFiles } from './import-graph';

const root = join(__dirname, '..', '..', '..');

describe('comments in the source', () => {
  it('stay near 5% of its lines (a line of why; what a unit is goes in docs/architecture: docs/development.md#conventions)', () => {
    const { comments, lines, share } = commentShare(root, sourceFiles(root));
    expect(lines).toBeGreaterThan(20_000);
    expect(comments).toBeGreaterThan(0);
    expect(share).toBeLessThan(0.055);
  });
});
