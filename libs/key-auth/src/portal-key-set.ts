import { AppError, Subjects } from '@swap/contracts';
import { decodeReply, type MessagingClient } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { SignatureCheck, parsePublicKeys } from '@swap/messaging';
import { SignedKeySetFeed, type KeptCopyStore } from './signed-key-set-feed';

/** Per key set version: the previous release (v2) keeps its own copy under the old key, which it can read. */
export const PORTAL_KEY_SET_STORE_KEY = 'keyset:portal:v3';
const PREVIOUS_STORE_KEY = 'keyset:portal';

export interface PortalKeySetFeedOptions {
  messaging: MessagingClient;
  /** KEYSET_PUBLIC_KEY. */
  publicKeys: string;
  store?: KeptCopyStore;
  /** KEYSET_KEPT_MAX_AGE_MS. */
  keptMaxAgeMs?: number;
  timeoutMs: number;
  logger: Logger;
}

export function portalKeySetFeed(options: PortalKeySetFeedOptions): SignedKeySetFeed {
  const { messaging } = options;
  return new SignedKeySetFeed({
    check: new SignatureCheck(parsePublicKeys(options.publicKeys)),
    // While key-registry still runs the previous release (a rollout), only v2 is answered.
    request: () =>
      messaging
        .request(Subjects.keySetSnapshot, {})
        .catch((error: unknown) =>
          error instanceof AppError && error.getStatus() === 503 ? messaging.request(Subjects.keySetSnapshotV2, {}) : Promise.reject(error),
        ),
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
    previousStoreKey: PREVIOUS_STORE_KEY,
    keptMaxAgeMs: options.keptMaxAgeMs,
    logger: options.logger,
  });
}
