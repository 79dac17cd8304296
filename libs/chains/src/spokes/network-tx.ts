import { AppError, type NetworkTx } from '@swap/contracts';

/** A transaction handed back must be in its builder's form: else a 400 naming tx.encoding. */
export function requireEncoding(tx: NetworkTx, expected: NetworkTx['encoding'], rule: string, why: string): void {
  if (tx.encoding === expected) return;
  throw AppError.validation([{ field: 'tx.encoding', rule, message: `tx.encoding must be ${expected}: ${why}` }]);
}
