import { spokeNetworkOf, type ChainInfo, type ChainDirectory, type TokenInfo } from '@swap/chains';
import { addressProblemOn, AppError, isEvmAddressText, tokenProblemOn, type FieldViolation } from '@swap/contracts';
import type { Hex } from 'viem';

export const NATIVE = '0x0000000000000000000000000000000000000000';

export interface SwapSides {
  srcChainKey: string;
  dstChainKey: string;
  inputToken: string;
  outputToken: string;
  srcAddress?: string;
  dstAddress?: string;
}

/** The quote body says tokenSrc where the intent body says inputToken. */
export interface SwapFieldNames {
  srcChainKey: string;
  dstChainKey: string;
  inputToken: string;
  outputToken: string;
  srcAddress: string;
  dstAddress: string;
}

export const INTENT_FIELDS: SwapFieldNames = {
  srcChainKey: 'srcChainKey',
  dstChainKey: 'dstChainKey',
  inputToken: 'inputToken',
  outputToken: 'outputToken',
  srcAddress: 'srcAddress',
  dstAddress: 'dstAddress',
};
export const QUOTE_FIELDS: SwapFieldNames = {
  srcChainKey: 'tokenSrcChainKey',
  dstChainKey: 'tokenDstChainKey',
  inputToken: 'tokenSrc',
  outputToken: 'tokenDst',
  srcAddress: 'srcAddress',
  dstAddress: 'dstAddress',
};

export interface ResolvedSwap {
  src: ChainInfo;
  dst: ChainInfo;
  input: TokenInfo;
  output: TokenInfo;
  /** Raw address bytes as the intent carries them; '0x' where the body gave no address. */
  srcAddress: Hex;
  dstAddress: Hex;
}

/** Every failure at once, each naming its field; the hub's native token only in its wrapped form. */
export function resolveSwap(directory: ChainDirectory, sides: SwapSides, fields: SwapFieldNames): ResolvedSwap {
  const problems: FieldViolation[] = [];
  const src = directory.findChain(sides.srcChainKey);
  const dst = directory.findChain(sides.dstChainKey);
  if (!src)
    problems.push({
      field: fields.srcChainKey,
      rule: 'knownChain',
      message: `${fields.srcChainKey}: unknown chain key ${sides.srcChainKey}`,
    });
  if (!dst)
    problems.push({
      field: fields.dstChainKey,
      rule: 'knownChain',
      message: `${fields.dstChainKey}: unknown chain key ${sides.dstChainKey}`,
    });
  const input = src ? token(directory, src, sides.inputToken, fields.inputToken, problems) : undefined;
  const output = dst ? token(directory, dst, sides.outputToken, fields.outputToken, problems) : undefined;
  if (src?.hub && input?.address === NATIVE) {
    problems.push({
      field: fields.inputToken,
      rule: 'hubNative',
      message: `${fields.inputToken}: the hub's native token cannot be deposited directly; use its wrapped form`,
    });
  }
  if (src && dst && input && output && src.key === dst.key && input.address.toLowerCase() === output.address.toLowerCase()) {
    problems.push({
      field: fields.outputToken,
      rule: 'differentFromInput',
      message: `${fields.outputToken} must differ from ${fields.inputToken} when both are on the same chain`,
    });
  }
  const srcAddress = src && sides.srcAddress !== undefined ? addressBytes(src, sides.srcAddress, fields.srcAddress, problems) : '0x';
  const dstAddress = dst && sides.dstAddress !== undefined ? addressBytes(dst, sides.dstAddress, fields.dstAddress, problems) : '0x';
  if (problems.length) throw AppError.validation(problems);
  return { src: src!, dst: dst!, input: input!, output: output!, srcAddress, dstAddress };
}

/** One side alone (a vault's shares are no listed token): its chain, token if named, and address bytes; problems are added, not thrown. */
export function resolveSide(
  directory: ChainDirectory,
  side: { chainKey: string; token?: string; address?: string; paying: boolean },
  fields: { chainKey: string; token: string; address: string },
  problems: FieldViolation[],
): { chain?: ChainInfo; token?: TokenInfo; address: Hex } {
  const chain = directory.findChain(side.chainKey);
  if (!chain) {
    problems.push({ field: fields.chainKey, rule: 'knownChain', message: `${fields.chainKey}: unknown chain key ${side.chainKey}` });
    return { address: '0x' };
  }
  const found = side.token === undefined ? undefined : token(directory, chain, side.token, fields.token, problems);
  if (side.paying && chain.hub && found?.address === NATIVE) {
    problems.push({
      field: fields.token,
      rule: 'hubNative',
      message: `${fields.token}: the hub's native token cannot be deposited directly; use its wrapped form`,
    });
  }
  const address = side.address !== undefined ? addressBytes(chain, side.address, fields.address, problems) : '0x';
  return { chain, token: found, address };
}

function token(
  directory: ChainDirectory,
  chain: ChainInfo,
  address: string,
  field: string,
  problems: FieldViolation[],
): TokenInfo | undefined {
  // The directory compares EVM addresses without case, so only a well-formed one is looked up.
  const found = chain.type !== 'EVM' || isEvmAddressText(address) ? directory.findToken(chain.key, address) : undefined;
  const problem = tokenProblemOn(chain, field, address, found !== undefined);
  if (problem) problems.push(problem);
  return found;
}

/** As the public client's encodeAddress; a bad one is added to `problems` and '0x' returned. */
function addressBytes(chain: ChainInfo, address: string, field: string, problems: FieldViolation[]): Hex {
  const fail = (violation: FieldViolation): Hex => {
    problems.push(violation);
    return '0x';
  };
  if (chain.type === 'EVM') {
    if (!isEvmAddressText(address)) {
      return fail({
        field,
        rule: 'evmAddress',
        message: `${field} must be a 20-byte hex address on ${chain.key} (EIP-55 checksummed if mixed case)`,
      });
    }
    return address.toLowerCase() as Hex;
  }
  const network = spokeNetworkOf(chain.type);
  if (!network)
    return fail({ field, rule: 'supportedNetwork', message: `${field}: addresses on ${chain.key} (${chain.type}) are not supported yet` });
  const problem = addressProblemOn(chain.type, field, address);
  return problem ? fail(problem) : network.addressBytes(address);
}
