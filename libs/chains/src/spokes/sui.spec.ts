// Vectors: node libs/chains/src/spokes/vectors/sui.generate.mjs > libs/chains/src/spokes/vectors/sui.json
// (the @sodax/sdk's own Sui deposit and call, raw mode). The byte-for-byte comparison of
// whole built transactions against them runs in tools/devnet/src/sui-rpc-double.spec.ts,
// where the RPC double resolves objects the way it did for the SDK.
import { bcs } from '@mysten/sui/bcs';
import type { Transaction } from '@mysten/sui/transactions';
import { fromBase64, normalizeStructTag, normalizeSuiAddress } from '@mysten/sui/utils';
import type { Hex } from 'viem';
import { loadChainDirectory } from '../profiles';
import { SUI } from './sui';
import { splitSuiAddress, suiDepositTransaction, suiMessageTransaction } from './sui-adapter';
import vectors from './vectors/sui.json';

type Kind = ReturnType<typeof bcs.TransactionKind.parse>;
type Described = unknown;

/** Commands with each input argument replaced by what it is (an object by id, pure bytes), as a wallet would show them. */
function describeSdk(base64: string): Described[] {
  const ptb = (bcs.TransactionKind.parse(fromBase64(base64)) as Kind).ProgrammableTransaction!;
  const input = (i: number) => {
    const value = ptb.inputs[i];
    const object = value.Object?.SharedObject ?? value.Object?.ImmOrOwnedObject;
    return object ? { object: normalizeSuiAddress(object.objectId) } : { pure: value.Pure!.bytes };
  };
  return ptb.commands.map((c) => describeCommand(c as never, input));
}

function describeOurs(tx: Transaction): Described[] {
  const data = tx.getData();
  const input = (i: number) => {
    const value = data.inputs[i];
    if (value.UnresolvedObject) return { object: normalizeSuiAddress(value.UnresolvedObject.objectId) };
    if (value.Pure) return { pure: value.Pure.bytes };
    throw new Error(`unexpected input ${JSON.stringify(value)}`);
  };
  return data.commands.map((c) => describeCommand(c as never, input));
}

function describeCommand(command: Record<string, Record<string, unknown>>, input: (i: number) => unknown): Described {
  const arg = (a: { Input?: number; GasCoin?: unknown; Result?: number; NestedResult?: [number, number] }) =>
    a.Input !== undefined
      ? input(a.Input)
      : a.GasCoin !== undefined
        ? 'gas'
        : a.Result !== undefined
          ? { result: a.Result }
          : { nested: a.NestedResult };
  const args = (list: unknown) => (list as Parameters<typeof arg>[0][]).map(arg);
  if (command.MoveCall) {
    const m = command.MoveCall;
    return {
      call: `${normalizeSuiAddress(String(m.package))}::${String(m.module)}::${String(m.function)}`,
      typeArguments: (m.typeArguments as string[]).map((t) => normalizeStructTag(t)),
      arguments: args(m.arguments),
    };
  }
  if (command.SplitCoins) return { split: arg(command.SplitCoins.coin as never), amounts: args(command.SplitCoins.amounts) };
  if (command.MergeCoins) return { merge: arg(command.MergeCoins.destination as never), sources: args(command.MergeCoins.sources) };
  throw new Error(`unexpected command ${Object.keys(command).join()}`);
}

const vectorBytes = (described: Described[], call: string, index: number) => {
  const found = described.find((d) => (d as { call?: string }).call?.endsWith(call)) as { arguments: { pure: string }[] };
  return `0x${Buffer.from(bcs.vector(bcs.u8()).parse(fromBase64(found.arguments[index].pure))).toString('hex')}`;
};

describe('SUI spoke network', () => {
  const chain = loadChainDirectory('mainnet').findChain('sui')!;

  it('turns addresses into the bytes the SDK encodeAddress gives, and back', () => {
    for (const { address, bytes } of vectors.addresses) {
      expect(SUI.addressBytes(address)).toBe(bytes);
      expect(SUI.addressOfBytes(bytes as Hex)).toBe(address.toLowerCase());
    }
    expect(SUI.addressOfBytes('0x1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d')).toBeUndefined();
    expect(SUI.maxAmount).toBe(18446744073709551615n);
    expect(SUI.depositCarriesDataHash).toBe(false);
  });

  it('takes the asset manager the SDK config names (its original package, config object)', () => {
    expect(chain.assetManager).toBe(
      vectors.deposits[0].sdk.to.replace('::transfer', `::${splitSuiAddress(chain.assetManager!, 'a').objectId}`),
    );
  });

  it.each(vectors.deposits.map((d) => [d.name, d] as const))('deposits %s with the SDK’s commands and arguments', (_name, vector) => {
    const { tx, target } = suiDepositTransaction({
      packageId: vectors.latestPackageId,
      assetManager: splitSuiAddress(chain.assetManager!, 'assetManager'),
      connection: splitSuiAddress(chain.connection!, 'connection'),
      deposit: {
        user: vectors.user,
        token: vector.token,
        to: vectors.hubWallet as Hex,
        amount: BigInt(vector.amount),
        data: vectors.data as Hex,
      },
      coins: vector.coins,
      chainKey: 'sui',
    });
    expect(target).toBe(vector.sdk.to);
    const ours = describeOurs(tx);
    expect(ours).toEqual(describeSdk(vector.sdk.data));
    expect(vectorBytes(ours, '::transfer', 3)).toBe(vectors.hubWallet);
    expect(vectorBytes(ours, '::transfer', 4)).toBe(vectors.data);
  });

  it('sends the message with the SDK’s send_message_ua call', () => {
    const m = vectors.message;
    const { tx, target } = suiMessageTransaction(splitSuiAddress(chain.connection!, 'connection'), {
      user: vectors.user,
      dstChainId: BigInt(m.dstChainId),
      dstAddress: m.dstAddress as Hex,
      payload: m.payload as Hex,
    });
    expect(target).toBe(m.sdk.to);
    const ours = describeOurs(tx);
    expect(ours).toEqual(describeSdk(m.sdk.data));
    const call = ours[0] as { arguments: { pure: string }[] };
    expect(BigInt(bcs.u256().parse(fromBase64(call.arguments[1].pure)))).toBe(146n);
    expect(vectorBytes(ours, '::send_message_ua', 2)).toBe(m.dstAddress);
    expect(vectorBytes(ours, '::send_message_ua', 3)).toBe(m.payload);
  });

  it('refuses a deposit the user’s coins do not cover (a 422)', () => {
    expect(() =>
      suiDepositTransaction({
        packageId: vectors.latestPackageId,
        assetManager: splitSuiAddress(chain.assetManager!, 'assetManager'),
        connection: splitSuiAddress(chain.connection!, 'connection'),
        deposit: { user: vectors.user, token: vectors.deposits[1].token, to: vectors.hubWallet as Hex, amount: 10n ** 12n, data: '0x' },
        coins: vectors.deposits[1].coins,
        chainKey: 'sui',
      }),
    ).toThrow(expect.objectContaining({ status: 422 }));
  });
});
