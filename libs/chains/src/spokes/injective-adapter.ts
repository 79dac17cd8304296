import {
  ChainRestAuthApi,
  ChainRestTendermintApi,
  type AccountResponse,
  type BlockLatestRestResponse,
} from '@injectivelabs/sdk-ts/client/chain';
import { MsgExecuteContract } from '@injectivelabs/sdk-ts/core/modules';
import { createTransaction, getAminoStdSignDoc, TxRestApi } from '@injectivelabs/sdk-ts/core/tx';
import { sortObjectByKeys } from '@injectivelabs/sdk-ts/utils';
import { AppError, ErrorCode, type NetworkTx } from '@swap/contracts';
import { bytesToHex, hexToBytes, type Hex } from 'viem';
import type { ChainInfo } from '../chain-directory';
import type { SpokeAdapter, SpokeDeposit, SpokeFee, SpokeMessage, SpokeSourceCheck } from './spoke-network';
import { requireEncoding, requireSigner } from './network-tx';

/** Enough for an asset-manager transfer plus its cross-chain message. */
export const INJECTIVE_GAS_LIMIT = 1_000_000;
/** ~0.7 s blocks; a non-zero height also keeps the amino sign bytes equal to the chain's, which omit a zero one. */
export const INJECTIVE_TIMEOUT_BLOCKS = 600;
const EXECUTE_AMINO_TYPE = 'wasm/MsgExecuteContract';
const EXECUTE_PROTO_TYPES = ['/cosmwasm.wasm.v1.MsgExecuteContract', '/injective.wasmx.v1.MsgExecuteContractCompat'];
/** Simulation only: the chain checks no signature, but the library will not encode a signer info without a key. */
const SIMULATION_PUBKEY = Buffer.concat([Buffer.from([2]), Buffer.alloc(32, 1)]).toString('base64');

type Coin = { denom: string; amount: string };
/** Amounts are CosmWasm Uint128 strings. */
export interface InjectiveTransferMsg {
  transfer: { token: string; to: number[]; amount: string; data: number[] };
}
export interface InjectiveSendMessageMsg {
  send_message: { dst_chain_id: number; dst_address: number[]; payload: number[] };
}
export interface InjectiveSignDoc {
  chain_id: string;
  account_number: string;
  sequence: string;
  timeout_height?: string;
  fee: { amount: Coin[]; gas: string };
  msgs: { type: string; value: { sender: string; contract: string; msg: Record<string, unknown>; funds: Coin[] } }[];
  memo: string;
}
interface RestTxLookup {
  tx?: { body?: { messages?: Record<string, unknown>[] } };
  tx_response?: { code: number; raw_log: string; txhash: string };
}

/** Injective through @injectivelabs/sdk-ts on the LCD endpoint; why amino: docs/integrators/networks/injective.md#the-unsigned-transaction. */
export class InjectiveAdapter implements SpokeAdapter {
  private readonly auth: ChainRestAuthApi;
  private readonly tendermint: ChainRestTendermintApi;
  private readonly txs: TxRestApi;
  private readonly timeoutMs: number;

  constructor(
    readonly chain: ChainInfo,
    options: { timeoutMs?: number } = {},
  ) {
    const url = chain.rpcUrls?.[0];
    if (!url) throw new Error(`No RPC URL configured for ${chain.key}`);
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.auth = new ChainRestAuthApi(url, { timeout: this.timeoutMs });
    this.tendermint = new ChainRestTendermintApi(url, { timeout: this.timeoutMs });
    this.txs = new TxRestApi(url, { timeout: this.timeoutMs });
  }

  buildDeposit(deposit: SpokeDeposit): Promise<NetworkTx> {
    const contract = this.contract('assetManager');
    const amount = deposit.amount.toString();
    const msg: InjectiveTransferMsg = {
      transfer: { token: deposit.token, to: bytesOf(deposit.to), amount, data: bytesOf(deposit.data) },
    };
    return this.build(deposit.user, contract, msg, [{ amount, denom: deposit.token }]);
  }

  buildMessage(message: SpokeMessage): Promise<NetworkTx> {
    const contract = this.contract('connection');
    const msg: InjectiveSendMessageMsg = {
      send_message: {
        dst_chain_id: Number(message.dstChainId),
        dst_address: bytesOf(message.dstAddress),
        payload: bytesOf(message.payload),
      },
    };
    return this.build(message.user, contract, msg, []);
  }

  async latestBlockTime(): Promise<bigint> {
    const block = await this.latestBlock();
    return BigInt(Math.floor(new Date(block.header.time).getTime() / 1000));
  }

  /** Simulated gas at the offered price; a refusal or a use above the gas limit is a 422. */
  async feeOf(tx: NetworkTx): Promise<SpokeFee> {
    requireEncoding(tx, 'json', 'injectiveTx', `${this.chain.key} transactions are amino sign docs`);
    const doc = parseSignDoc(tx.data);
    const signer = doc.msgs[0].value.sender;
    requireSigner(tx, signer);
    const account = await this.account(signer);
    const { txRaw } = createTransaction({
      message: doc.msgs.map((m) =>
        MsgExecuteContract.fromJSON({ sender: m.value.sender, contractAddress: m.value.contract, msg: m.value.msg, funds: m.value.funds }),
      ),
      memo: doc.memo,
      chainId: doc.chain_id,
      accountNumber: Number(doc.account_number),
      sequence: Number(doc.sequence),
      timeoutHeight: doc.timeout_height ? Number(doc.timeout_height) : undefined,
      fee: doc.fee,
      pubKey: account.pubKey ?? SIMULATION_PUBKEY,
    });
    let gasUsed: number;
    try {
      ({
        gasInfo: { gasUsed },
      } = await this.read(this.txs.simulate(txRaw)));
    } catch (error) {
      const reason = errorText(error);
      // The library wraps every simulate failure alike; only a reply from the node is the chain's refusal.
      if (/^The request to .* has failed\.$/.test(reason) || error instanceof RpcTimeout)
        throw new Error(`${this.chain.key} simulate failed: ${reason}`, { cause: error });
      throw new AppError(422, ErrorCode.TransactionWouldFail, `Injective would refuse the transaction: ${reason}`);
    }
    const limit = BigInt(doc.fee.gas);
    const offered = BigInt(doc.fee.amount.find((c) => c.denom === 'inj')?.amount ?? '0');
    const price = limit > 0n ? offered / limit : 0n;
    if (BigInt(gasUsed) > limit)
      throw new AppError(422, ErrorCode.TransactionWouldFail, `The transaction needs ${gasUsed} gas and allows ${limit}; build it again`);
    return { gas: String(gasUsed), price: price.toString(), fee: (BigInt(gasUsed) * price).toString(), unit: 'inj' };
  }

  async checkSource(txId: string): Promise<SpokeSourceCheck> {
    const hash = txId.replace(/^0x/i, '').toUpperCase();
    let lookup: RestTxLookup;
    try {
      lookup = await this.read(
        this.txs.httpClient.get<Record<string, never>, { data: RestTxLookup }>(`/cosmos/tx/v1beta1/txs/${hash}`).then((r) => r.data),
      );
    } catch (error) {
      const reply = (error as { response?: { status?: number; data?: { message?: unknown } } }).response;
      // Nodes on older Cosmos SDKs answer an unknown hash with a 500 saying so instead of a 404.
      if (reply?.status === 404 || /tx not found/i.test(String(reply?.data?.message ?? ''))) return { found: false };
      throw new Error(`${this.chain.key} transaction lookup failed: ${errorText(error)}`, { cause: error });
    }
    const messages = lookup.tx?.body?.messages ?? [];
    const response = lookup.tx_response;
    if (!response) return { found: false };
    const sender = String(messages[0]?.sender ?? messages[0]?.from_address ?? '');
    if (Number(response.code) !== 0) return { found: true, success: false, sender, reason: response.raw_log || `code ${response.code}` };
    for (const message of messages) {
      if (!EXECUTE_PROTO_TYPES.includes(String(message['@type']))) continue;
      const msg = (typeof message.msg === 'string' ? JSON.parse(message.msg) : message.msg) as Partial<
        InjectiveTransferMsg & InjectiveSendMessageMsg
      >;
      if (message.contract === this.chain.connection && msg.send_message) {
        const { dst_address, payload } = msg.send_message;
        const to = bytesToHex(Uint8Array.from(dst_address)).toLowerCase() as Hex;
        return { found: true, success: true, sender, message: { to, data: bytesToHex(Uint8Array.from(payload)) } };
      }
      if (message.contract !== this.chain.assetManager || !msg.transfer) continue;
      const { token, amount, to, data } = msg.transfer;
      return {
        found: true,
        success: true,
        sender,
        deposit: {
          token,
          amount: BigInt(amount),
          to: bytesToHex(Uint8Array.from(to)).toLowerCase() as Hex,
          data: bytesToHex(Uint8Array.from(data)),
        },
      };
    }
    return { found: true, success: true, sender };
  }

  private contract(kind: 'assetManager' | 'connection'): string {
    const address = this.chain[kind];
    if (!address) throw new AppError(503, ErrorCode.NotConfigured, `This deployment has no ${kind} configured for ${this.chain.key}`);
    return address;
  }

  private async build(user: string, contract: string, msg: object, funds: Coin[]): Promise<NetworkTx> {
    const [account, block] = await Promise.all([this.account(user), this.latestBlock()]);
    const message = MsgExecuteContract.fromJSON({ sender: user, contractAddress: contract, msg, funds });
    const doc = getAminoStdSignDoc({
      chainId: String(this.chain.chainId) as Parameters<typeof getAminoStdSignDoc>[0]['chainId'],
      accountNumber: account.accountNumber,
      sequence: account.sequence,
      timeoutHeight: (BigInt(block.header.height) + BigInt(INJECTIVE_TIMEOUT_BLOCKS)).toString(),
      gas: String(INJECTIVE_GAS_LIMIT),
      memo: '',
      msgs: [message],
    });
    const signDoc: InjectiveSignDoc = { ...doc, fee: { amount: doc.fee.amount, gas: doc.fee.gas } };
    return { from: user, to: contract, encoding: 'json', data: JSON.stringify(sortObjectByKeys(signDoc)) };
  }

  /** An address the chain has never seen cannot pay a fee. */
  private async account(address: string): Promise<{ accountNumber: number; sequence: number; pubKey?: string }> {
    let response: AccountResponse;
    try {
      // The client's own get: fetchAccount retries every failure, a 404 included, past any timeout.
      response = (await this.read(this.auth.get<{ data: AccountResponse }>(`cosmos/auth/v1beta1/accounts/${address}`))).data;
    } catch (error) {
      if ((error as { code?: unknown }).code === 404)
        throw new AppError(
          422,
          ErrorCode.TransactionWouldFail,
          `${address} has no account on Injective yet: fund it with INJ for fees first`,
        );
      throw new Error(`${this.chain.key} account read failed: ${errorText(error)}`, { cause: error });
    }
    const base = (response.account.base_account ?? response.account) as unknown as {
      account_number: string;
      sequence: string;
      pub_key?: { key?: string } | null;
    };
    return { accountNumber: Number(base.account_number), sequence: Number(base.sequence), pubKey: base.pub_key?.key || undefined };
  }

  private async latestBlock(): Promise<BlockLatestRestResponse['block']> {
    try {
      const { data } = await this.read(
        this.tendermint.get<{ data: BlockLatestRestResponse }>('cosmos/base/tendermint/v1beta1/blocks/latest'),
      );
      return data.sdk_block ?? data.block;
    } catch (error) {
      throw new Error(`${this.chain.key} latest block read failed: ${errorText(error)}`, { cause: error });
    }
  }

  /** Bounds a read by the adapter's timeout: the library's own retries would otherwise outlast it. */
  private read<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RpcTimeout(`${this.chain.key} did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }
}

class RpcTimeout extends Error {}

function bytesOf(hex: Hex): number[] {
  return Array.from(hexToBytes(hex));
}

function errorText(error: unknown): string {
  const e = error as { originalMessage?: string; message?: string };
  return e.originalMessage || e.message || String(error);
}

export function parseSignDoc(data: string): InjectiveSignDoc {
  const invalid = () =>
    AppError.validation([
      { field: 'tx.data', rule: 'injectiveSignDoc', message: 'tx.data must be the amino sign doc JSON the builder answered' },
    ]);
  let doc: InjectiveSignDoc;
  try {
    doc = JSON.parse(data) as InjectiveSignDoc;
  } catch {
    throw invalid();
  }
  const wellFormed =
    typeof doc === 'object' &&
    doc !== null &&
    typeof doc.chain_id === 'string' &&
    /^\d+$/.test(String(doc.account_number)) &&
    /^\d+$/.test(String(doc.sequence)) &&
    /^\d+$/.test(String(doc.fee?.gas)) &&
    Array.isArray(doc.fee?.amount) &&
    Array.isArray(doc.msgs) &&
    doc.msgs.length > 0 &&
    doc.msgs.every(
      (m) =>
        m?.type === EXECUTE_AMINO_TYPE &&
        typeof m.value?.sender === 'string' &&
        typeof m.value.contract === 'string' &&
        typeof m.value.msg === 'object' &&
        Array.isArray(m.value.funds),
    );
  if (!wellFormed) throw invalid();
  return { ...doc, memo: typeof doc.memo === 'string' ? doc.memo : '' };
}
