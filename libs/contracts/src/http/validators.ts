import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateBy, ValidateNested, buildMessage, getMetadataStorage, type ValidationOptions } from 'class-validator';
import type { FieldViolation } from '../errors';
import { checksummedAddress } from './evm-checksum';

const UINT256_MAX = (1n << 256n) - 1n;

/** A uint256 as a decimal string: digits only (no sign, exponent or fraction), at most 2^256 - 1. */
export function isUint256String(value: unknown): boolean {
  return typeof value === 'string' && /^(0|[1-9]\d{0,77})$/.test(value) && BigInt(value) <= UINT256_MAX;
}

export function IsUint256String(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUint256String',
      validator: {
        validate: isUint256String,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a non-negative integer in a decimal string, at most 2^256 - 1`,
          options,
        ),
      },
    },
    options,
  );
}

/**
 * An amount above zero (rule `positive`), beside IsUint256String: a decimal string whose
 * first digit is not 0 (so `"0"` and leading zeros are refused, each saying why).
 */
export function IsPositiveAmount(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'positive',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^[1-9]/.test(value),
        defaultMessage: buildMessage((each) => `${each}$property must be greater than zero, written without leading zeros`, options),
      },
    },
    options,
  );
}

/**
 * An EVM address as text: 0x and 40 hex digits; when the letters mix cases they must be a
 * valid EIP-55 checksum (a wrong one is a typo, not an address), while all lower or all
 * upper case carries no checksum. The one rule every field holding an EVM address follows.
 */
/** A 32-byte hash as EVM networks write it (a transaction hash, an intent hash): 0x and 64 hex digits, either case. */
export const EVM_HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

export function isEvmAddressText(value: unknown): value is string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  const digits = value.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || checksummedAddress(value) === value;
}

export function IsEvmAddress(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'evmAddress',
      validator: {
        // Mixed case must be a valid EIP-55 checksum: a wrong one is a typo, not an address.
        validate: isEvmAddressText,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a 20-byte hex address (0x and 40 hex digits, EIP-55 checksummed if mixed case)`,
          options,
        ),
      },
    },
    options,
  );
}

export function IsHexBytes(options?: ValidationOptions & { maxBytes?: number }): PropertyDecorator {
  const max = options?.maxBytes ?? 65_536;
  return ValidateBy(
    {
      name: 'isHexBytes',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value) && value.length <= 2 + 2 * max,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be 0x-prefixed hex bytes (an even number of hex digits, at most ${max} bytes)`,
          options,
        ),
      },
    },
    options,
  );
}

import { addressProblemOn, txHashProblemOn } from './network-addresses';

export { addressProblemOn, canonicalAddress, canonicalTxHash, txHashProblemOn } from './network-addresses';

/**
 * A nested object field: validated as its class, and an object (class-validator's
 * ValidateNested alone lets an array through, whose elements it checks instead: `[]`
 * passed as an intent). The one way a DTO nests another.
 */
export function NestedObject(type: () => new () => object): PropertyDecorator {
  return applyDecorators(ValidateNested(), Type(type), IsObject({ message: '$property must be an object' }));
}

/**
 * What a body field's rule depends on when it names something on a chain the body names:
 * `chainKey` (the field is a chain key: it must be known), `token` (a supported token of
 * that chain), `address` (a wallet in that chain's form), `txHash` (a transaction id of
 * that chain's kind), `intentFrom` (an intent whose srcChain must be that chain's relay id).
 */
export type ChainBoundKind = 'chainKey' | 'token' | 'address' | 'txHash' | 'intentFrom';

/** What the chain-bound rules ask of the service's chain catalog. */
export interface ChainRules {
  /** A chain by key or alias in any letter case; undefined when the deployment has none. */
  findChain(keyOrAlias: string): Promise<{ key: string; type: string; relayChainId: string } | undefined>;
  /** Whether the address is a supported token of the chain (EVM addresses in any case). */
  hasToken(chainKey: string, address: string): Promise<boolean>;
}

const CHAIN_BOUND = 'chainBound';

/**
 * Declares a body field whose rule depends on a chain the body names (`chainField`): it
 * is checked in the same pass as the field rules by a service that knows the chains (the
 * validation pipe given ChainRules), so a body's problems are answered all at once. Where
 * no service checks it (a bus payload), the builder's own checks still run.
 */
export function OnChain(kind: ChainBoundKind, chainField?: string): PropertyDecorator {
  // Recorded among class-validator's metadata (which mapped types such as OmitType copy),
  // passing by itself: the pipe reads it and runs the rule with the chains it knows.
  return ValidateBy({ name: CHAIN_BOUND, constraints: [kind, chainField], validator: { validate: () => true } });
}

interface ChainBoundField {
  property: string;
  kind: ChainBoundKind;
  chainField?: string;
}

const boundFields = new WeakMap<object, ChainBoundField[]>();

function chainBoundFieldsOf(target: new (...args: never[]) => unknown): ChainBoundField[] {
  let fields = boundFields.get(target);
  if (!fields) {
    fields = getMetadataStorage()
      .getTargetValidationMetadatas(target, '', true, false)
      .filter((m) => m.name === CHAIN_BOUND)
      .map((m) => ({
        property: m.propertyName,
        kind: m.constraints[0] as ChainBoundKind,
        chainField: m.constraints[1] as string | undefined,
      }));
    boundFields.set(target, fields);
  }
  return fields;
}

export function hasChainBoundFields(target: unknown): target is new (...args: never[]) => unknown {
  return typeof target === 'function' && chainBoundFieldsOf(target as new (...args: never[]) => unknown).length > 0;
}

/**
 * The chain-bound rules of a body (as sent: before any transform), each naming its field.
 * Fields already refused by their own rules, values of the wrong type and chains the body
 * does not name correctly are left to the field rules (one problem per field).
 */
export async function chainBoundProblems(
  target: new (...args: never[]) => unknown,
  body: Record<string, unknown>,
  rules: ChainRules,
  reported: ReadonlySet<string>,
): Promise<FieldViolation[]> {
  const problems: FieldViolation[] = [];
  for (const { property, kind, chainField } of chainBoundFieldsOf(target)) {
    const value = body[property];
    if (reported.has(property) || value === undefined) continue;
    if (kind === 'chainKey') {
      if (typeof value === 'string' && !(await rules.findChain(value)))
        problems.push({ field: property, rule: 'knownChain', message: `${property}: unknown chain key ${value}` });
      continue;
    }
    const key = chainField ? body[chainField] : undefined;
    const chain = typeof key === 'string' ? await rules.findChain(key) : undefined;
    if (!chain) continue;
    const problem = await chainBoundProblem(kind, property, value, chain, rules);
    if (problem && !reported.has(problem.field)) problems.push(problem);
  }
  return problems;
}

async function chainBoundProblem(
  kind: Exclude<ChainBoundKind, 'chainKey'>,
  field: string,
  value: unknown,
  chain: { key: string; type: string; relayChainId: string },
  rules: ChainRules,
): Promise<FieldViolation | undefined> {
  if (kind === 'intentFrom') {
    const srcChain = (value as { srcChain?: unknown } | null)?.srcChain;
    if (typeof srcChain !== 'string' || srcChain === chain.relayChainId) return undefined;
    return {
      field: `${field}.srcChain`,
      rule: 'matchesSrcChainKey',
      message: `${field}.srcChain must be ${chain.relayChainId}, the relay chain id of ${chain.key}`,
    };
  }
  if (typeof value !== 'string') return undefined;
  if (kind === 'address') return addressProblemOn(chain.type, field, value);
  if (kind === 'txHash') return txHashProblemOn(chain.type, field, value);
  return tokenProblemOn(chain, field, value, await rules.hasToken(chain.key, value));
}

/** A token field's rule on its chain: an address of the chain's form (EVM: the EIP-55 rule), of a supported token. */
export function tokenProblemOn(
  chain: { key: string; type: string },
  field: string,
  value: string,
  known: boolean,
): FieldViolation | undefined {
  if (chain.type === 'EVM' && !isEvmAddressText(value)) {
    return {
      field,
      rule: 'evmAddress',
      message: `${field} must be a 20-byte hex address on ${chain.key} (EIP-55 checksummed if mixed case)`,
    };
  }
  return known ? undefined : { field, rule: 'knownToken', message: `${field} ${value} is not a supported token on ${chain.key}` };
}
