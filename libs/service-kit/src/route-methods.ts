import type { FastifyInstance } from 'fastify';

const ESCAPED = /[.*+?^${}()|[\]\\]/g;

/** The methods each registered path answers, so a known path asked with another method is a 405, not a 404. */
export class RouteMethods {
  private readonly byUrl = new Map<string, { pattern: RegExp; methods: Set<string> }>();

  watch(fastify: FastifyInstance): void {
    fastify.addHook('onRoute', (route) => {
      // CORS answers OPTIONS on every path: it says nothing of which paths exist.
      const methods = [route.method]
        .flat()
        .map((m) => m.toUpperCase())
        .filter((m) => m !== 'OPTIONS');
      if (methods.length === 0) return;
      let known = this.byUrl.get(route.url);
      if (!known) this.byUrl.set(route.url, (known = { pattern: patternOf(route.url), methods: new Set() }));
      for (const method of methods) known.methods.add(method);
    });
  }

  /** Sorted; empty for a path no route has. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.byUrl.values()) if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
    return [...methods].sort();
  }
}

function patternOf(url: string): RegExp {
  const segments = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(ESCAPED, '\\$&');
  });
  return new RegExp(`^${segments.join('/')}/?$`);
}
