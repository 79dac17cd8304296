/* eslint-disable @typescript-eslint/no-explicit-any */

/** An answer as the tests read it: status, parsed JSON body, headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** How a request is sent: by default fetch against `base`; a test may route it through its own checks. */
export type Transport = (method: string, path: string, body: unknown, headers: Record<string, string>) => Promise<Answer>;

/** A browser's cookie jar and the portal's CSRF header: what a signed-in partner sends. */
export class Browser {
  readonly cookies = new Map<string, string>();
  lastSetCookie: string[] = [];
  private readonly transport: Transport;

  constructor(base: () => string, transport?: Transport) {
    this.transport =
      transport ??
      (async (method, path, body, headers) => {
        const res = await fetch(`${base()}${path}`, {
          method,
          headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body !== undefined ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
      });
  }

  /** The Cookie header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(method: string, path: string, body?: unknown, options: { csrf?: string | false } = {}): Promise<Answer> {
    const csrf = options.csrf === undefined ? this.cookies.get('portal_csrf') : options.csrf;
    const answer = await this.transport(method, path, body, {
      ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    });
    this.lastSetCookie = answer.headers.getSetCookie();
    for (const line of this.lastSetCookie) {
      const [pair] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<string> {
    await this.call('GET', '/portal/api/auth/csrf');
    const res = await this.call('POST', '/portal/api/auth/sign-up', { email, password });
    expect(res.status).toBe(201);
    return res.body.user.id;
  }
}
