import { parser } from '@prometheus-io/lezer-promql';

/** Parsed with Prometheus' own grammar: the syntax errors, and the metric names it selects. */
export function promql(expr: string): { errors: string[]; metrics: string[] } {
  const errors: string[] = [];
  const metrics = new Set<string>();
  const cursor = parser.parse(expr).cursor();
  do {
    if (cursor.type.isError) errors.push(`syntax error at ${cursor.from}: ${JSON.stringify(expr.slice(cursor.from, cursor.from + 20))}`);
    if (cursor.name === 'VectorSelector') {
      const name = cursor.node.getChild('Identifier');
      if (name) metrics.add(expr.slice(name.from, name.to));
    }
  } while (cursor.next());
  return { errors, metrics: [...metrics].sort() };
}

/** The series names a Prometheus text exposition serves (a histogram's _bucket, _sum and _count, a summary's _sum and _count). */
export function servedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name, kind] = match;
    names.add(name);
    if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (kind === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}
