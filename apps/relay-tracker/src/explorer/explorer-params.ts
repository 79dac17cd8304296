import { AppError, ErrorCode, EVM_ADDRESS_PATTERN, EVM_HASH_PATTERN, isEvmAddressText, type FieldViolation } from '@swap/contracts';
import { getBase58Encoder } from '@solana/kit';
import { toHex } from 'viem';
import { MAX_OFFSET, type PageQuery } from './explorer.query';

export class Where {
  private readonly parts: string[] = [];

  /** `params`: another statement part's, to number placeholders on from them. */
  constructor(readonly params: unknown[] = []) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(sql: (...placeholders: string[]) => string, ...values: unknown[]): void {
    this.parts.push(sql(...values.map((v) => this.param(v))));
  }

  fixed(sql: string): void {
    this.parts.push(sql);
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }

  get and(): string {
    return this.parts.map((part) => ` AND ${part}`).join('');
  }
}

export function intentNotFound(message: string): AppError {
  return AppError.notFound(message, ErrorCode.IntentNotFound);
}

export function hashOrFail(field: string, value: string): void {
  if (!EVM_HASH_PATTERN.test(value))
    throw AppError.validation([{ field, rule: 'evmHash', message: `${field} must be 0x followed by 64 hex digits (a hub hash)` }]);
}

/** EVM addresses in lower case; a Solana key as its 32 bytes in hex (intents carry source addresses as bytes). */
export function userBytes(address: string): string {
  if (EVM_ADDRESS_PATTERN.test(address)) return evmAddressOrFail('userAddress', address);
  if (/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) {
    try {
      const bytes = getBase58Encoder().encode(address);
      if (bytes.length === 32) return toHex(new Uint8Array(bytes));
    } catch {
      // reported below
    }
  }
  throw AppError.validation([
    {
      field: 'userAddress',
      rule: 'userAddress',
      message: 'userAddress must be a 20-byte hex address (a hub wallet or an EVM source address) or a base58 Solana public key',
    },
  ]);
}

/** In lower case; 20-byte hex whose mixed letter cases are not its EIP-55 checksum is refused as a likely typo. */
export function evmAddressOrFail(field: string, address: string): string {
  if (isEvmAddressText(address)) return address.toLowerCase();
  const rule = EVM_ADDRESS_PATTERN.test(address) ? 'evmChecksum' : 'evmAddress';
  const message =
    rule === 'evmChecksum'
      ? `${field} mixes letter cases that are not its EIP-55 checksum (a typo?); write it in lower case to skip the check`
      : `${field} must be a 20-byte hex address`;
  throw AppError.validation([{ field, rule, message }]);
}

export function limitOf(text: string | undefined): number {
  const limit = text === undefined ? 50 : Number(text);
  if (!(limit >= 1 && limit <= 100))
    throw AppError.validation([{ field: 'limit', rule: 'range', message: 'limit must be an integer from 1 to 100' }]);
  return limit;
}

export function page(query: PageQuery): { offset: number; limit: number } {
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (offset > MAX_OFFSET)
    throw AppError.validation([
      { field: 'offset', rule: 'max', message: `offset must be at most ${MAX_OFFSET} (narrow the query with its filters to read further)` },
    ]);
  return { offset, limit: limitOf(query.limit) };
}

export function dateOf(field: string, text: string): Date {
  const date = /^\d+$/.test(text) ? new Date(Number(text)) : new Date(text);
  const time = date.getTime();
  // 1970 to the end of 9999: what PostgreSQL and every client agree on; no 30 February (Date would roll it into March).
  if (Number.isNaN(time) || time < 0 || time > 253_402_300_799_999 || !calendarDay(text)) {
    const violation: FieldViolation = {
      field,
      rule: 'date',
      message: `${field} must be an ISO 8601 date (1970 to 9999) or milliseconds since 1970`,
    };
    throw AppError.validation([violation]);
  }
  return date;
}

function calendarDay(text: string): boolean {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  return !day || Number(day[3]) <= new Date(Date.UTC(Number(day[1]), Number(day[2]), 0)).getUTCDate();
}

export function orderedOrFail(from: { field: string; value: number | undefined }, to: { field: string; value: number | undefined }): void {
  if (from.value === undefined || to.value === undefined || from.value <= to.value) return;
  throw AppError.validation([{ field: to.field, rule: 'order', message: `${to.field} must not come before ${from.field}` }]);
}
