import type { ChainCatalogSnapshot, SignedPayload } from '@swap/contracts';
import { generateSigningKeyEnv, MessagingClient, parsePublicKeys, parseSigningKey, PayloadSigner, SignatureCheck } from '@swap/messaging';
import pino from 'pino';
import { ChainCatalogMirror } from '@swap/chain-catalog';

/** For specs: a catalog key pair of their own, snapshots signed with it, and a mirror that trusts it. */
export class CatalogTestSigning {
  readonly env = generateSigningKeyEnv('CATALOG');
  private readonly signer = new PayloadSigner(parseSigningKey(this.env.CATALOG_SIGNING_KEY));

  sign(snapshot: ChainCatalogSnapshot): SignedPayload<ChainCatalogSnapshot> {
    return this.signer.sign(snapshot);
  }

  check(): SignatureCheck {
    return new SignatureCheck(parsePublicKeys(this.env.CATALOG_PUBLIC_KEY));
  }

  mirror(messaging: MessagingClient): ChainCatalogMirror {
    return new ChainCatalogMirror(messaging, this.check(), pino({ level: 'silent' }));
  }
}

export const testCatalogSigning = new CatalogTestSigning();
