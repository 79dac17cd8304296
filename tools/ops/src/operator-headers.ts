import { operatorCredentials } from '@swap/config';

/** OPS_TOKEN is one operator's token or `name:token` pair; unset, for services that answer loopback only. */
export function operatorHeaders(opsToken: string | undefined): Record<string, string> {
  if (!opsToken) return {};
  const credentials = operatorCredentials(opsToken);
  if (credentials.length > 1)
    throw new Error('OPS_TOKEN is one operator’s token (or their name:token pair) here, not the services’ whole list');
  return { authorization: `Bearer ${credentials[0].token}` };
}
