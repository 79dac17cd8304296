import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateBy, ValidateNested, buildMessage, getMetadataStorage, type ValidationOptions } from 'class-validator';
import type { FieldViolation } from '../errors';
import { isEvmAddressText } from './evm-checksum';

const UINT256_MAX = (1n << 256n) - 1n;

/** Digits only (no sign, exponent or fraction), at most 2^256 - 1. */
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

/** Beside IsUint256String: refuses `"0"` and leading zeros, each saying why. */
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

export { addressProblemOn, canonicalAddress, canonicalTxHash, txHashCandidates, txHashProblemOn } from './network-addresses';

/** The one way a DTO nests another: ValidateNested alone lets an array through (`[]` passed as an intent). */
export function NestedObject(type: () => new () => object): PropertyDecorator {
  return applyDecorators(ValidateNested(), Type(type), IsObject({ message: '$property must be an object' }));
}

/** `intentFrom`: an intent whose srcChain must be the named chain's relay id. */
export type ChainBoundKind = 'chainKey' | 'token' | 'address' | 'txHash' | 'intentFrom';

export interface ChainRules {
  /** Key or alias in any letter case. */
  findChain(keyOrAlias: string): Promise<{ key: string; type: string; relayChainId: string } | undefined>;
  /** EVM addresses in any case. */
  hasToken(chainKey: string, address: string): Promise<boolean>;
}

const CHAIN_BOUND = 'chainBound';

/** Checked by the validation pipe in the same pass as the field rules, so a body's problems come all at once. */
export function OnChain(kind: ChainBoundKind, chainField?: string): PropertyDecorator {
  // Passes by itself, kept in class-validator's metadata (which OmitType copies): the pipe runs the rule.
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

/** On the body as sent; what the field rules already refuse is left to them (one problem per field). */
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
