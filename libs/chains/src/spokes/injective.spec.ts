// Vectors: node libs/chains/src/spokes/vectors/injective.generate.mjs > libs/chains/src/spokes/vectors/injective.json
import { MsgExecuteContract as MsgExecuteContractProto } from '@injectivelabs/core-proto-ts-v2/generated/cosmwasm/wasm/v1/tx_pb';
import { ChainRestAuthApi, ChainRestTendermintApi } from '@injectivelabs/sdk-ts/client/chain';
import { MsgExecuteContract } from '@injectivelabs/sdk-ts/core/modules';
import { createTransaction, getTransactionPartsFromTxRaw } from '@injectivelabs/sdk-ts/core/tx';
import { getEthereumAddress, sortObjectByKeys } from '@injectivelabs/sdk-ts/utils';
import { toHex, type Hex } from 'viem';
import type { ChainInfo } from '../chain-directory';
import { INJECTIVE } from './injective';
import type { InjectiveSignDoc } from './injective-adapter';
import vectors from './vectors/injective.json';

const chain: ChainInfo = {
  key: 'injective-1',
  name: 'Injective',
  type: 'INJECTIVE',
  chainId: 'injective-1',
  relayChainId: '19',
  hub: false,
  assetManager: vectors.assetManager,
  connection: vectors.connection,
  aliases: [],
  rpcUrls: ['http://127.0.0.1:9'],
};
const PUBKEY = Buffer.concat([Buffer.from([2]), Buffer.alloc(32, 9)]).toString('base64');

/** The message a wallet broadcasts for the sign doc, decoded from the library's protobuf transaction. */
function executeOf(data: string) {
  const doc = JSON.parse(data) as InjectiveSignDoc;
  const { txRaw } = createTransaction({
    message: doc.msgs.map((m) =>
      MsgExecuteContract.fromJSON({ sender: m.value.sender, contractAddress: m.value.contract, msg: m.value.msg, funds: m.value.funds }),
    ),
    memo: doc.memo,
    chainId: doc.chain_id,
    accountNumber: Number(doc.account_number),
    sequence: Number(doc.sequence),
    timeoutHeight: Number(doc.timeout_height),
    fee: doc.fee,
    pubKey: PUBKEY,
  });
  const { body } = getTransactionPartsFromTxRaw(txRaw);
  expect(body.messages.map((m) => m.typeUrl)).toEqual(['/cosmwasm.wasm.v1.MsgExecuteContract']);
  expect(body.timeoutHeight).toBe(BigInt(doc.timeout_height ?? 0));
  const message = MsgExecuteContractProto.fromBinary(body.messages[0].value);
  const msg = JSON.parse(Buffer.from(message.msg).toString('utf8')) as unknown;
  // What the wallet shows (amino) and what the chain executes (protobuf) carry the same call.
  expect(doc.msgs).toEqual([
    { type: 'wasm/MsgExecuteContract', value: { sender: message.sender, contract: message.contract, msg, funds: message.funds } },
  ]);
  return {
    doc,
    sender: message.sender,
    contractAddress: message.contract,
    msg,
    funds: message.funds.map(({ amount, denom }) => ({ amount, denom })),
  };
}

describe('INJECTIVE', () => {
  it('encodes addresses as the public client does (UTF-8 bytes of the bech32 text) and back', () => {
    for (const { address, bytes } of vectors.addresses) {
      expect(INJECTIVE.addressBytes(address)).toBe(bytes);
      expect(INJECTIVE.addressOfBytes(bytes as Hex)).toBe(address);
    }
  });

  it('finds no address in bytes that are not one', () => {
    const [{ address }] = vectors.addresses;
    const broken = `${address.slice(0, -1)}${address.endsWith('q') ? 'p' : 'q'}`;
    expect(INJECTIVE.addressOfBytes(toHex(Buffer.from(broken)))).toBeUndefined();
    expect(INJECTIVE.addressOfBytes(getEthereumAddress(address) as Hex)).toBeUndefined();
    expect(INJECTIVE.addressOfBytes('0xff00ff')).toBeUndefined();
    expect(INJECTIVE.addressOfBytes('0x')).toBeUndefined();
  });

  it('takes CosmWasm Uint128 amounts and deposits the hub calls themselves', () => {
    expect(INJECTIVE.maxAmount).toBe(2n ** 128n - 1n);
    expect(INJECTIVE.depositCarriesDataHash).toBe(false);
  });

  describe('built transactions', () => {
    beforeEach(() => {
      jest.spyOn(ChainRestAuthApi.prototype, 'get').mockImplementation((path: string) =>
        Promise.resolve({
          data: {
            account: {
              '@type': '/injective.types.v1beta1.EthAccount',
              code_hash: '',
              base_account: { address: path.split('/').pop(), pub_key: null, account_number: '31', sequence: '5' },
            },
          },
        } as never),
      );
      jest
        .spyOn(ChainRestTendermintApi.prototype, 'get')
        .mockResolvedValue({ data: { block: { header: { height: '1000', time: '2026-01-01T00:00:00Z' } } } } as never);
    });
    afterEach(() => jest.restoreAllMocks());

    it.each(vectors.deposits.map((d) => [d.input.token, d] as const))(
      'deposits %s as the SDK does: transfer message and funds',
      async (_, { input, executed }) => {
        const tx = await INJECTIVE.createAdapter(chain, { timeoutMs: 1_000 }).buildDeposit({
          user: input.from,
          token: input.token,
          to: input.to as Hex,
          amount: BigInt(input.amount),
          data: input.data as Hex,
        });
        expect(tx).toMatchObject({ from: input.from, to: vectors.assetManager, encoding: 'json' });
        const { doc, ...execute } = executeOf(tx.data);
        expect(execute).toEqual(executed);
        expect(tx.data).toBe(JSON.stringify(sortObjectByKeys(doc)));
        expect(doc).toMatchObject({ chain_id: 'injective-1', account_number: '31', sequence: '5', timeout_height: '1600', memo: '' });
      },
    );

    it('sends the message to the hub as the SDK does: send_message to the connection', async () => {
      const { input, executed } = vectors.message;
      const tx = await INJECTIVE.createAdapter(chain, { timeoutMs: 1_000 }).buildMessage({
        user: input.user,
        dstChainId: BigInt(input.dstChainId),
        dstAddress: input.dstAddress as Hex,
        payload: input.payload as Hex,
      });
      expect(tx).toMatchObject({ from: input.user, to: vectors.connection, encoding: 'json' });
      const { doc, ...execute } = executeOf(tx.data);
      void doc;
      expect(execute).toEqual(executed);
    });
  });
});
