import { AppError, type NetworkTx } from '@swap/contracts';

/** A transaction handed back must be in its builder's form: else a 400 naming tx.encoding. */
export function requireEncoding(tx: NetworkTx, expected: NetworkTx['encoding'], rule: string, why: string): void {
  if (tx.encoding === expected) return;
  throw AppError.validation([{ field: 'tx.encoding', rule, message: `tx.encoding must be ${expected}: ${why}` }]);
}

/** Another sender's transaction is not the one built for `tx.from`: a 400 naming it, before any node is asked. */
export function requireSigner(tx: NetworkTx, signer: string, same: (a: string, b: string) => boolean = (a, b) => a === b): void {
  if (typeof tx.from === 'string' && same(tx.from, signer)) return;
  throw AppError.validation([
    { field: 'tx.from', rule: 'signer', message: `tx.from must be the transaction's signer (${signer}), as the builder answered it` },
  ]);
}
