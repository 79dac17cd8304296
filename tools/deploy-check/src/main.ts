/** `npm run deploy:check`: docs/operators/kubernetes.md#checking-a-change. */
import { ensureKubeTools } from './kube-tools';
import { lintChart, render, RENDER_SOURCES, schemaProblems } from './manifests';
import { platformProblems } from './platform-rules';

function main(): void {
  const tools = ensureKubeTools();
  let failed = false;
  for (const source of RENDER_SOURCES) {
    const problems: string[] = [];
    try {
      if (source.kind === 'chart') lintChart(tools, source);
      const objects = render(tools, source);
      problems.push(...schemaProblems(objects), ...platformProblems(objects, source.rules));
      const kinds = new Map<string, number>();
      for (const object of objects) kinds.set(object.kind, (kinds.get(object.kind) ?? 0) + 1);
      const summary = [...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ');
      process.stdout.write(`${problems.length ? 'FAIL' : 'ok  '} ${source.name}: ${objects.length} objects (${summary})\n`);
    } catch (error) {
      const { stderr, message } = error as Error & { stderr?: string };
      problems.push(String(stderr || message).trim());
      process.stdout.write(`FAIL ${source.name}\n`);
    }
    for (const problem of problems) process.stdout.write(`     - ${problem}\n`);
    failed ||= problems.length > 0;
  }
  process.exitCode = failed ? 1 : 0;
}

main();
