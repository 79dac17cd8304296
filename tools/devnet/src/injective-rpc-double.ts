import { MsgExecuteContract as MsgExecuteContractProto } from '@injectivelabs/core-proto-ts-v2/generated/cosmwasm/wasm/v1/tx_pb';
import type { AccountResponse, BlockLatestRestResponse } from '@injectivelabs/sdk-ts/client/chain';
import { MsgExecuteContract } from '@injectivelabs/sdk-ts/core/modules';
import { getTransactionPartsFromTxRaw, TxClient } from '@injectivelabs/sdk-ts/core/tx';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Coin = { denom: string; amount: string };
type Reply = { status: number; body: unknown };
interface SeededAccount {
  accountNumber: number;
  sequence: number;
  pubKey?: string;
  /** A simulation whose funds exceed these fails like the bank module's check. */
  balances?: Coin[];
}
interface RestTx {
  tx: { '@type': string; body: { messages: unknown[]; memo: string; timeout_height: string }; auth_info: unknown; signatures: string[] };
  tx_response: {
    height: string;
    txhash: string;
    code: number;
    codespace: string;
    raw_log: string;
    gas_wanted: string;
    gas_used: string;
    timestamp: string;
  };
}

const ETH_ACCOUNT = '/injective.types.v1beta1.EthAccount';
const ETH_PUBKEY = '/injective.crypto.v1beta1.ethsecp256k1.PubKey';
/** keccak256 of empty code, as every externally owned EthAccount carries. */
const EMPTY_CODE_HASH = 'xdJGAYb3IzySfn2y3McDwOUAtlPKgic7e/rYBF2FpHA=';
/** A real asset-manager transfer uses a few hundred thousand. */
export const SIMULATED_GAS_USED = 285_000;

/** Constructed LCD answers, not an Injective node; see docs/integrators/devnet.md#the-rpc-stand-ins. */
export class InjectiveRpcDouble {
  private server?: Server;
  private readonly started = Date.now();
  private readonly accounts = new Map<string, SeededAccount>();
  private readonly missing = new Set<string>();
  private readonly txs = new Map<string, RestTx>();
  readonly chainId = 'injective-1';
  url = '';

  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  height(): number {
    return 120_000_000 + Math.floor((Date.now() - this.started) / 700);
  }

  seedAccount(address: string, account: SeededAccount): void {
    this.missing.delete(address);
    this.accounts.set(address, account);
  }

  /** The LCD answers 404. */
  markMissing(address: string): void {
    this.accounts.delete(address);
    this.missing.add(address);
  }

  seedDeposit(input: {
    hash: string;
    sender: string;
    assetManager: string;
    token: string;
    amount: bigint;
    to: Uint8Array;
    data: Uint8Array;
  }): void {
    const amount = input.amount.toString();
    const message = MsgExecuteContract.fromJSON({
      sender: input.sender,
      contractAddress: input.assetManager,
      msg: { transfer: { token: input.token, to: Array.from(input.to), amount, data: Array.from(input.data) } },
      funds: [{ denom: input.token, amount }],
    });
    this.seedTx(input.hash, [message.toWeb3()], 0, '');
  }

  /** A contract execution; failed on chain with `reason` (its raw_log) when one is given. */
  seedExecute(input: { hash: string; sender: string; contract: string; msg: object; reason?: string }): void {
    const message = MsgExecuteContract.fromJSON({ sender: input.sender, contractAddress: input.contract, msg: input.msg, funds: [] });
    this.seedTx(input.hash, [message.toWeb3()], input.reason ? 5 : 0, input.reason ?? '');
  }

  private seedTx(hash: string, messages: unknown[], code: number, rawLog: string): void {
    const txhash = hash.replace(/^0x/i, '').toUpperCase();
    this.txs.set(txhash, {
      tx: {
        '@type': '/cosmos.tx.v1beta1.Tx',
        body: { messages, memo: '', timeout_height: '0' },
        auth_info: {
          signer_infos: [],
          fee: { amount: [{ denom: 'inj', amount: '160000000000000' }], gas_limit: '1000000', payer: '', granter: '' },
        },
        signatures: [],
      },
      tx_response: {
        height: String(this.height()),
        txhash,
        code,
        codespace: code ? 'wasm' : '',
        raw_log: rawLog,
        gas_wanted: '1000000',
        gas_used: String(SIMULATED_GAS_USED),
        timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      },
    });
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      let reply: Reply;
      try {
        reply = this.answer(req.method ?? 'GET', new URL(req.url ?? '/', 'http://127.0.0.1').pathname, body);
      } catch (error) {
        reply = grpcError(400, 3, error instanceof Error ? error.message : String(error));
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  }

  private answer(method: string, path: string, body: string): Reply {
    const account = /^\/cosmos\/auth\/v1beta1\/accounts\/([^/]+)$/.exec(path);
    if (method === 'GET' && account) return this.account(account[1]);
    if (method === 'GET' && path === '/cosmos/base/tendermint/v1beta1/blocks/latest') return { status: 200, body: this.latestBlock() };
    const tx = /^\/cosmos\/tx\/v1beta1\/txs\/([^/]+)$/.exec(path);
    if (method === 'GET' && tx) {
      const found = this.txs.get(tx[1].toUpperCase());
      return found ? { status: 200, body: found } : grpcError(404, 5, `tx not found: ${tx[1]}`);
    }
    if (method === 'POST' && path === '/cosmos/tx/v1beta1/simulate') return this.simulate(JSON.parse(body) as { tx_bytes?: string });
    return grpcError(501, 12, `Not Implemented: ${method} ${path}`);
  }

  private account(address: string): Reply {
    if (this.missing.has(address) || !/^inj1[02-9ac-hj-np-z]{38}$/.test(address)) return grpcError(404, 5, `account ${address} not found`);
    const seeded = this.accounts.get(address) ?? { accountNumber: defaultAccountNumber(address), sequence: 0 };
    const body: AccountResponse = {
      account: {
        '@type': ETH_ACCOUNT,
        code_hash: EMPTY_CODE_HASH,
        base_account: {
          address,
          // A real node answers null for an account that has not signed yet; the library's type omits that case.
          pub_key: (seeded.pubKey
            ? { '@type': ETH_PUBKEY, key: seeded.pubKey }
            : null) as AccountResponse['account']['base_account']['pub_key'],
          account_number: String(seeded.accountNumber),
          sequence: String(seeded.sequence),
        },
      },
    };
    return { status: 200, body };
  }

  private latestBlock(): BlockLatestRestResponse {
    const height = String(this.height());
    const hash = createHash('sha256').update(height).digest('base64');
    const header = {
      version: { block: '11', app: '0' },
      chain_id: this.chainId,
      height,
      time: new Date().toISOString() as unknown as Date,
      last_block_id: { hash, part_set_header: { total: 0 as const, hash } },
      last_commit_hash: hash,
      data_hash: hash,
      validators_hash: hash,
      next_validators_hash: hash,
      consensus_hash: hash,
      app_hash: hash,
      last_results_hash: hash,
      evidence_hash: hash,
      proposer_address: hash,
    };
    return {
      block_id: { hash, part_set_header: { total: 1, hash } },
      block: { header },
      sdk_block: { header },
    } as unknown as BlockLatestRestResponse;
  }

  private simulate(request: { tx_bytes?: string }): Reply {
    let messages: { sender: string; funds: Coin[] }[];
    try {
      const { body } = getTransactionPartsFromTxRaw(TxClient.decode(request.tx_bytes ?? ''));
      messages = body.messages.map((any) => {
        if (any.typeUrl !== '/cosmwasm.wasm.v1.MsgExecuteContract') throw new Error(`unexpected message ${any.typeUrl}`);
        return MsgExecuteContractProto.fromBinary(any.value);
      });
    } catch (error) {
      return grpcError(400, 3, `invalid transaction: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const message of messages) {
      const balances = this.accounts.get(message.sender)?.balances;
      if (!balances) continue;
      for (const coin of message.funds) {
        const held = BigInt(balances.find((b) => b.denom === coin.denom)?.amount ?? '0');
        if (held < BigInt(coin.amount))
          return grpcError(
            400,
            5,
            `failed to execute message; message index: 0: spendable balance ${held}${coin.denom} is smaller than ${coin.amount}${coin.denom}: insufficient funds`,
          );
      }
    }
    return {
      status: 200,
      body: {
        gas_info: { gas_wanted: '0', gas_used: String(SIMULATED_GAS_USED) },
        result: { data: '', log: '', events: [], msg_responses: [] },
      },
    };
  }
}

function grpcError(status: number, code: number, message: string): Reply {
  return { status, body: { code, message, details: [] } };
}

function defaultAccountNumber(address: string): number {
  return createHash('sha256').update(address).digest().readUInt32BE(0);
}
