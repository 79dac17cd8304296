import { ChainAccess } from '@swap/chains';
import { Injectable } from '@nestjs/common';
import {
  AppError,
  ErrorCode,
  isEvmAddressText,
  type FieldViolation,
  type GasEstimateResponse,
  type GasTxDto,
  type NetworkTx,
} from '@swap/contracts';
import { BaseError, EstimateGasExecutionError, HttpRequestError, TimeoutError, type Address, type Hex } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';

/** At current prices; a transaction the chain would reject is a 422 that says why, not a guess. */
@Injectable()
export class GasEstimatorService {
  constructor(
    private readonly catalog: ChainCatalog,
    private readonly chains: ChainAccess,
  ) {}

  async estimate(chainKey: string, tx: GasTxDto): Promise<GasEstimateResponse> {
    const chain = this.catalog.chains.findChain(chainKey);
    if (!chain) throw AppError.validation([{ field: 'chainKey', rule: 'knownChain', message: `chainKey: unknown chain key ${chainKey}` }]);
    if (chain.type === 'EVM') {
      const problems: FieldViolation[] = [];
      if (!isEvmAddressText(tx.from))
        problems.push({
          field: 'tx.from',
          rule: 'evmAddress',
          message: `tx.from must be a 20-byte hex address on ${chain.key} (EIP-55 checksummed if mixed case)`,
        });
      if (!isEvmAddressText(tx.to))
        problems.push({
          field: 'tx.to',
          rule: 'evmAddress',
          message: `tx.to must be a 20-byte hex address on ${chain.key} (EIP-55 checksummed if mixed case)`,
        });
      if (!/^0x([0-9a-fA-F]{2})*$/.test(tx.data))
        problems.push({ field: 'tx.data', rule: 'hexBytes', message: 'tx.data must be 0x-prefixed hex bytes on an EVM network' });
      if (tx.chainId !== undefined && tx.chainId !== chain.chainId)
        problems.push({
          field: 'tx.chainId',
          rule: 'matchesChainKey',
          message: `tx.chainId must be ${chain.chainId}, the EVM chain id of ${chain.key}`,
        });
      if (tx.encoding !== undefined)
        problems.push({
          field: 'tx.encoding',
          rule: 'evmTx',
          message: `tx.encoding is for Solana transactions; ${chain.key} takes { from, to, value, data }`,
        });
      if (problems.length) throw AppError.validation(problems);
      const call = { from: tx.from as Address, to: tx.to as Address, value: BigInt(tx.value ?? '0'), data: tx.data as Hex };
      const gas = await this.chains.evm(chain, (a) => a.estimateGas(call).catch((error: unknown) => rethrowRevert(error, chain.key)));
      const price = await this.chains.evm(chain, (a) => a.gasPrice());
      return { chainKey: chain.key, gas: gas.toString(), price: price.toString(), fee: (gas * price).toString(), unit: 'wei' };
    }
    const { gas, price, fee, unit } = await this.chains.spoke(chain, (a) =>
      a.feeOf({ ...(tx as unknown as NetworkTx), encoding: tx.encoding ?? ('' as NetworkTx['encoding']) }),
    );
    return { chainKey: chain.key, gas, price, fee, unit };
  }
}

/** A refusal (revert, funds, nonce) is the transaction's fault: 422; an unreachable or slow node goes on as a 503. */
function rethrowRevert(error: unknown, chainKey: string): never {
  if (error instanceof EstimateGasExecutionError && !error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError)) {
    const reason = (error.cause as BaseError | undefined)?.shortMessage ?? error.shortMessage;
    throw new AppError(422, ErrorCode.TransactionWouldFail, `The transaction would fail on ${chainKey} now: ${reason}`.slice(0, 300));
  }
  throw error;
}
