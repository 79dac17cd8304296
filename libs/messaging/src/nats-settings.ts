import { ConfigError, type BusSettings } from '@swap/config';
import type { Logger } from '@swap/observability';
import { nkeys } from 'nats';
import type { NatsAuth, NatsBusOptions } from './nats-bus';

/** The NATS authorization lets each service read its own inbox only (docs/operators/securing-the-bus.md). */
export function inboxPrefixOf(service: string): string {
  return `_INBOX_${service}`;
}

export function natsBusOptions(settings: Partial<BusSettings>, service: string, logger?: Logger): NatsBusOptions {
  if (!settings.NATS_URL) throw new ConfigError(['NATS_URL is required']);
  const tls =
    settings.NATS_TLS_CA_FILE || settings.NATS_TLS_CERT_FILE
      ? { caFile: settings.NATS_TLS_CA_FILE, certFile: settings.NATS_TLS_CERT_FILE, keyFile: settings.NATS_TLS_KEY_FILE }
      : undefined;
  return {
    servers: settings.NATS_URL,
    name: service,
    subjectPrefix: settings.NATS_SUBJECT_PREFIX,
    inboxPrefix: inboxPrefixOf(service),
    auth: natsAuthOf(settings),
    tls,
    logger,
  };
}

function natsAuthOf(settings: Partial<BusSettings>): NatsAuth | undefined {
  if (settings.NATS_USER !== undefined && settings.NATS_PASSWORD !== undefined)
    return { user: settings.NATS_USER, password: settings.NATS_PASSWORD };
  if (settings.NATS_CREDS_FILE) return { credsFile: settings.NATS_CREDS_FILE };
  const seed = settings.NATS_NKEY_SEED?.trim();
  if (!seed) return undefined;
  if (!isUserSeed(seed))
    throw new ConfigError(['NATS_NKEY_SEED is invalid: it must be a NATS user nkey seed (SU…, 58 characters; the value is not shown)']);
  return { nkeySeed: seed };
}

function isUserSeed(seed: string): boolean {
  try {
    return nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey().startsWith('U');
  } catch {
    return false;
  }
}
