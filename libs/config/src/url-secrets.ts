/**
 * A URL as logs and messages may show it: a password, or a user name standing alone (a NATS
 * token is one), replaced by `***`; the rest kept (the database a DATABASE_URL names helps).
 * The user information ends at the authority's last `@` (a password may hold one unencoded).
 */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon >= 0 ? `${userinfo.slice(0, colon)}:***` : '***'}@`;
  });
}

/**
 * URLs in a configuration value as a refusal quotes them: scheme, host and port (and a bare
 * `/`), what came after them, where an RPC provider's key often is, replaced by `…`; no user
 * or password, also where a URL lacks its scheme. Lists (comma-separated, `name=url` pairs)
 * keep their shape.
 */
export function withoutUrlSecrets(value: string): string {
  return value
    .replace(
      /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#,]*@)?([^\s/?#,@]*)([^\s,]*)/gi,
      (_, scheme: string, host: string, rest: string) => `${scheme}${host}${rest === '' || rest === '/' ? rest : '/…'}`,
    )
    .replace(/(^|[,=])[^\s,=/]*@/g, '$1***@');
}
