/** A user name standing alone is a NATS token; the userinfo ends at the last `@` (a password may hold one). */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon >= 0 ? `${userinfo.slice(0, colon)}:***` : '***'}@`;
  });
}

/** Scheme, host and port only: an RPC provider's key is often in the path. Lists keep their shape. */
export function withoutUrlSecrets(value: string): string {
  return value
    .replace(
      /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#,]*@)?([^\s/?#,@]*)([^\s,]*)/gi,
      (_, scheme: string, host: string, rest: string) => `${scheme}${host}${rest === '' || rest === '/' ? rest : '/…'}`,
    )
    .replace(/(^|[,=])[^\s,=/]*@/g, '$1***@');
}
