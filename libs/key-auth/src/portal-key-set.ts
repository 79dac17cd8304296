import { Subjects } from '@swap/contracts';
import { decodeReply, type MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { KeySetSignatureCheck, parsePublicKeys } from './key-set-signature';
import { SignedKeySetFeed, type KeptCopyStore } from './signed-key-set-feed';

/** Where the last good portal key set is kept, in the service's cache namespace (shared by its replicas). */
export const PORTAL_KEY_SET_STORE_KEY = 'keyset:portal';

export interface PortalKeySetFeedOptions {
  messaging: MessagingClient;
  /** KEYSET_PUBLIC_KEY: key-registry's public key (two, comma-separated, while rotating). */
  publicKeys: string;
  /** The service's shared cache (Redis; memory in the embedded default). */
  store?: KeptCopyStore;
  /** KEYSET_KEPT_MAX_AGE_MS: the oldest kept copy taken at start. */
  keptMaxAgeMs?: number;
  timeoutMs: number;
  logger: Logger;
}

/** The portal key set of a service with keyed routes: signed snapshots and changes from key-registry over the bus. */
export function portalKeySetFeed(options: PortalKeySetFeedOptions): SignedKeySetFeed {
  const { messaging } = options;
  return new SignedKeySetFeed({
    check: new KeySetSignatureCheck(parsePublicKeys(options.publicKeys)),
    request: () => messaging.request(Subjects.keySetSnapshot, {}),
    gather: (onAnswer) =>
      messaging.bus.gather(Subjects.keySetSnapshot, '{}', (reply) => {
        let envelope: ReturnType<typeof decodeReply>;
        try {
          envelope = decodeReply(reply.data);
        } catch {
          return;
        }
        if (envelope.ok) onAnswer(envelope.data);
      }),
    timeoutMs: options.timeoutMs,
    store: options.store,
    storeKey: PORTAL_KEY_SET_STORE_KEY,
    keptMaxAgeMs: options.keptMaxAgeMs,
    logger: options.logger,
  });
}
