import type { Provider } from '@nestjs/common';
import { parseSigningKey, PayloadSigner } from '@swap/messaging';
import type { Logger } from '@swap/observability';
import { LOGGER } from '@swap/service-kit';
import { KeyRegistryConfig } from '../key-registry.config';

/** The signer of every key set and change key-registry publishes, from KEYSET_SIGNING_KEY (checked at boot, with KEYSET_PUBLIC_KEY when set). */
export const keySetSignerProvider: Provider = {
  provide: PayloadSigner,
  inject: [KeyRegistryConfig, LOGGER],
  useFactory: (config: KeyRegistryConfig, logger: Logger) => {
    const signer = new PayloadSigner(parseSigningKey(config.KEYSET_SIGNING_KEY));
    logger.info(
      { keyId: signer.keyId, publicKey: signer.publicKey },
      "key sets are signed with this key (its public half is every service's KEYSET_PUBLIC_KEY)",
    );
    return signer;
  },
};
