import { AppError, type NetworkTx } from '@swap/contracts';

/** A transaction handed back (gas estimate) must be in the form its network's builder answered: else a 400 naming tx.encoding. */
export function requireEncoding(tx: NetworkTx, expected: NetworkTx['encoding'], rule: string, why: string): void {
  if (tx.encoding === expected) return;
  throw AppError.validation([{ field: 'tx.encoding', rule, message: `tx.encoding must be ${expected}: ${why}` }]);
}
