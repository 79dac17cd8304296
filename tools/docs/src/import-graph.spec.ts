import { join } from 'node:path';
import { circles, importGraph, sourceFiles } from './import-graph';

const root = join(__dirname, '..', '..', '..');

describe('the structure drawn from the imports', () => {
  it('finds a circle where there is one, however long', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(circles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it('has no circle between source files (type-only imports and the @swap/* aliases counted; specs aside)', () => {
    const files = sourceFiles(root);
    const graph = importGraph(root, files);
    expect(files.length).toBeGreaterThan(300);
    expect(graph.get('libs/service-kit/src/start-service.ts')).toContain('libs/service-kit/src/service-connections.ts');
    expect(circles(graph)).toEqual([]);
  });
});
