// Vectors: node libs/chains/src/spokes/vectors/stellar.generate.mjs > libs/chains/src/spokes/vectors/stellar.json
// (the public client @sodax/sdk's own encodeAddress, deposit and call for fixed inputs).
import { Address, Networks, TransactionBuilder, rpc, scValToBigInt, scValToNative, type Transaction, xdr } from '@stellar/stellar-sdk';
import { toHex, type Hex } from 'viem';
import type { SpokeDeposit } from './spoke-network';
import { STELLAR } from './stellar';
import {
  assembledInvocation,
  depositOperation,
  invocationTransaction,
  sendMessageOperation,
  STELLAR_PRIORITY_FEE,
  STELLAR_TX_TIMEOUT_SECONDS,
} from './stellar-adapter';
import vectors from './vectors/stellar.json';

interface Built {
  input: Record<string, string>;
  sdk: { from: string; to: string; data: string };
  simulation: rpc.Api.RawSimulateTransactionResponse;
  assembled: string;
}

const deposits = vectors.deposits as unknown as Built[];
const message = vectors.message as unknown as Built;

function decode(envelope: string): Transaction {
  return TransactionBuilder.fromXDR(envelope, Networks.PUBLIC) as Transaction;
}

/** The single contract call a transaction makes: contract, function name and arguments. */
function callOf(envelope: string): { contract: string; fn: string; args: xdr.ScVal[] } {
  const [operation] = decode(envelope).operations;
  if (operation.type !== 'invokeHostFunction' || operation.func.type !== 'hostFunctionTypeInvokeContract')
    throw new Error('not a contract call');
  const call = operation.func.invokeContract;
  return { contract: Address.fromScAddress(call.contractAddress).toString(), fn: call.functionName.toString(), args: call.args };
}

const bytesOf = (value: xdr.ScVal): Hex => toHex(scValToNative(value) as Uint8Array);

describe('STELLAR addresses', () => {
  it('addressBytes equals the public client’s encodeAddress for accounts and contracts', () => {
    expect(vectors.addresses.some((v) => v.address.startsWith('G')) && vectors.addresses.some((v) => v.address.startsWith('C'))).toBe(true);
    for (const { address, bytes } of vectors.addresses) expect(STELLAR.addressBytes(address)).toBe(bytes);
  });

  it('addressOfBytes inverts it, and answers undefined for bytes that are no Stellar account or contract', () => {
    for (const { address, bytes } of vectors.addresses) expect(STELLAR.addressOfBytes(bytes as Hex)).toBe(address);
    expect(STELLAR.addressOfBytes('0x1234567890abcdef1234567890abcdef12345678')).toBeUndefined();
    expect(STELLAR.addressOfBytes(toHex(xdr.ScVal.scvU32(7).toXdr()))).toBeUndefined();
    expect(STELLAR.addressOfBytes(`${vectors.addresses[0].bytes}00` as Hex)).toBeUndefined();
    expect(STELLAR.addressOfBytes('0x')).toBeUndefined();
  });

  it('takes u128 amounts (the asset manager’s transfer)', () => {
    expect(STELLAR.maxAmount).toBe(2n ** 128n - 1n);
    expect(STELLAR.depositCarriesDataHash).toBe(false);
  });
});

describe('Stellar transactions against the public client’s', () => {
  const { assetManager, connection } = vectors.constants;
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(vectors.nowMs));
  afterEach(() => jest.restoreAllMocks());

  it('uses the public client’s fee and time-bound constants', () => {
    expect(STELLAR_PRIORITY_FEE.toString()).toBe(vectors.constants.STELLAR_PRIORITY_FEE);
    expect(STELLAR_TX_TIMEOUT_SECONDS).toBe(vectors.constants.STELLAR_DEFAULT_TX_TIMEOUT_SECONDS);
  });

  it.each(deposits.map((d, i) => [i, d] as const))('deposit %i: the asset manager’s transfer with the same arguments', (_, vector) => {
    const input: SpokeDeposit = {
      user: vector.input.user,
      token: vector.input.token,
      to: vector.input.to as Hex,
      data: vector.input.data as Hex,
      amount: BigInt(vector.input.amount),
    };
    const operation = depositOperation(assetManager, input);
    const priorityFee = BigInt(vector.simulation.minResourceFee!) + STELLAR_PRIORITY_FEE + 100n;
    const raw = invocationTransaction(input.user, vectors.sequence, Networks.PUBLIC, operation, priorityFee);
    // Byte for byte the transaction the public client returns in raw mode …
    expect(raw.toXDR()).toBe(vector.sdk.data);
    // … and the one it submits once assembled with the simulation.
    const simulation = rpc.parseRawSimulation(vector.simulation) as rpc.Api.SimulateTransactionSuccessResponse;
    expect(assembledInvocation(input.user, vectors.sequence, Networks.PUBLIC, operation, simulation).toXDR()).toBe(vector.assembled);

    const call = callOf(vector.sdk.data);
    expect(call).toMatchObject({ contract: assetManager, fn: 'transfer' });
    const [from, token, amount, to, data] = call.args;
    expect(Address.fromScVal(from).toString()).toBe(input.user);
    expect(Address.fromScVal(token).toString()).toBe(input.token);
    expect(amount.type).toBe('scvU128');
    expect(scValToBigInt(amount)).toBe(input.amount);
    expect(bytesOf(to)).toBe(input.to);
    expect(bytesOf(data)).toBe(input.data);
  });

  it('message: the connection’s send_message with the same arguments', () => {
    const input = {
      user: message.input.user,
      dstChainId: BigInt(message.input.dstChainId),
      dstAddress: message.input.dstAddress as Hex,
      payload: message.input.payload as Hex,
    };
    const operation = sendMessageOperation(connection, input);
    const priorityFee = BigInt(message.simulation.minResourceFee!) + STELLAR_PRIORITY_FEE + 100n;
    expect(invocationTransaction(input.user, vectors.sequence, Networks.PUBLIC, operation, priorityFee).toXDR()).toBe(message.sdk.data);
    const simulation = rpc.parseRawSimulation(message.simulation) as rpc.Api.SimulateTransactionSuccessResponse;
    expect(assembledInvocation(input.user, vectors.sequence, Networks.PUBLIC, operation, simulation).toXDR()).toBe(message.assembled);

    const call = callOf(message.sdk.data);
    expect(call).toMatchObject({ contract: connection, fn: 'send_message' });
    const [from, dstChainId, dstAddress, payload] = call.args;
    expect(Address.fromScVal(from).toString()).toBe(input.user);
    expect(dstChainId.type).toBe('scvU128');
    expect(scValToBigInt(dstChainId)).toBe(146n);
    expect(bytesOf(dstAddress)).toBe(input.dstAddress);
    expect(bytesOf(payload)).toBe(input.payload);
  });

  it('the assembled transaction carries the simulation’s footprint and resources, its resource fee and the caller’s auth', () => {
    const vector = deposits[0];
    const assembled = decode(vector.assembled);
    const envelope = assembled.toEnvelope();
    if (envelope.type !== 'envelopeTypeTx' || envelope.v1.tx.ext.type !== 'sorobanData') throw new Error('no Soroban data');
    expect(envelope.v1.tx.ext.sorobanData.toXdr('base64')).toBe(vector.simulation.transactionData);
    const [operation] = assembled.operations;
    expect(operation.type === 'invokeHostFunction' && operation.auth?.map((a) => a.toXdr('base64'))).toEqual(
      vector.simulation.results![0].auth,
    );
    // The public client's bid (resource fee + priority + base fee), to which assembling adds the resource fee.
    const resourceFee = BigInt(vector.simulation.minResourceFee!);
    expect(BigInt(assembled.fee)).toBe(2n * resourceFee + STELLAR_PRIORITY_FEE + 100n);
  });
});
