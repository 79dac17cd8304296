import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Source files (specs and generated code aside) of apps/, libs/ and tools/, relative to root. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  for (const top of ['apps', 'libs', 'tools']) {
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      const path = relative(root, join(entry.parentPath, entry.name));
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name) || /spec\.tsx?$/.test(entry.name)) continue;
      if (/(^|\/)(node_modules|generated|dist)\//.test(path)) continue;
      files.push(path);
    }
  }
  return files.sort();
}

/** Each file's imports among `files`: relative paths and the `@swap/*` aliases of tsconfig.base.json (type-only imports too). */
export function importGraph(root: string, files: string[]): Map<string, string[]> {
  const aliases = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths as Record<string, string[]>;
  const known = new Set(files);
  const resolve = (from: string, spec: string): string | undefined => {
    if (aliases[spec]) return aliases[spec][0];
    if (!spec.startsWith('.')) return undefined;
    const base = normalize(join(dirname(from), spec));
    return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => known.has(candidate) && existsSync(join(root, candidate)));
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = new Set<string>();
    for (const [, spec] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s+['"]([^'"]+)['"]/g)) {
      const target = resolve(file, spec);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The circles of the graph: its strongly connected components of more than one file (Tarjan's algorithm). */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}
