// Vectors: node libs/chains/src/spokes/vectors/solana.generate.mjs > libs/chains/src/spokes/vectors/solana.json
import {
  AccountRole,
  decompileTransactionMessage,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Blockhash,
  type Instruction,
} from '@solana/kit';
import { keccak256, type Hex } from 'viem';
import {
  computeBudgetInstructions,
  DEPOSIT_COMPUTE_UNITS,
  MESSAGE_COMPUTE_UNITS,
  sendMessageInstruction,
  transferInstruction,
  unsignedTransaction,
} from '../solana-adapter';
import { SOLANA } from './solana';
import vectors from './vectors/solana.json';

/** A wire transaction as a wallet reads it: fee payer, blockhash, each instruction's program, accounts with roles, and data. */
function decoded(base64: string) {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(transaction.messageBytes));
  return {
    signatures: Object.values(transaction.signatures).map((s) => (s ? 'signed' : 'empty')),
    feePayer: message.feePayer.address,
    blockhash: 'blockhash' in message.lifetimeConstraint ? message.lifetimeConstraint.blockhash : undefined,
    instructions: (message.instructions as readonly Instruction[]).map((ix) => ({
      program: ix.programAddress,
      accounts: (ix.accounts ?? []).map((a) => ({ address: a.address, role: AccountRole[a.role] })),
      data: Buffer.from(ix.data ?? []).toString('hex'),
    })),
  };
}

const lifetime = { blockhash: vectors.blockhash as Blockhash, lastValidBlockHeight: 1n };

describe('SOLANA spoke network', () => {
  it('addressBytes is the public client’s encodeAddress, addressOfBytes its inverse', () => {
    for (const { address, bytes } of vectors.addresses) {
      expect(SOLANA.addressBytes(address)).toBe(bytes);
      expect(SOLANA.addressOfBytes(bytes as Hex)).toBe(address);
    }
  });

  it('addressOfBytes answers undefined for bytes that are not a public key', () => {
    expect(SOLANA.addressOfBytes('0x1234567890abcdef1234567890abcdef12345678')).toBeUndefined();
    expect(SOLANA.addressOfBytes(`0x${'ab'.repeat(33)}`)).toBeUndefined();
  });

  it('deposits carry keccak256 of the hub calls, a u64 amount', () => {
    expect(SOLANA.depositCarriesDataHash).toBe(true);
    expect(SOLANA.maxAmount).toBe(2n ** 64n - 1n);
  });

  it.each(vectors.deposits.map((d) => [d.input.token, d] as const))(
    'a deposit of %s decodes to the public client’s instructions, accounts and data',
    async (_token, vector) => {
      const { input } = vector;
      const transfer = await transferInstruction(vectors.programs, {
        user: input.user,
        token: input.token,
        to: input.to as Hex,
        amount: BigInt(input.amount),
        data: keccak256(input.data as Hex),
      });
      const ours = unsignedTransaction(input.user, lifetime, [...computeBudgetInstructions(DEPOSIT_COMPUTE_UNITS), transfer]);
      const theirs = decoded(vector.tx.data);
      expect(decoded(ours)).toEqual(theirs);
      expect(theirs.signatures).toEqual(['empty']);
      expect(theirs.instructions.map((ix) => ix.program)).toEqual([
        'ComputeBudget111111111111111111111111111111',
        'ComputeBudget111111111111111111111111111111',
        vectors.programs.assetManager,
      ]);
      // Anchor `transfer`: discriminator, amount u64 LE, to (u32 length + bytes), keccak256(data) (u32 length + 32 bytes).
      const amount = Buffer.alloc(8);
      amount.writeBigUInt64LE(BigInt(input.amount));
      expect(theirs.instructions[2].data).toBe(
        `a334c8e78c0345ba${amount.toString('hex')}14000000${input.to.slice(2)}20000000${keccak256(input.data as Hex).slice(2)}`,
      );
    },
  );

  it('a message decodes to the public client’s send_message with keccak256(payload)', async () => {
    const { input } = vectors.message;
    const send = await sendMessageInstruction(vectors.programs.connection, {
      user: input.user,
      dstChainId: BigInt(input.dstChainId),
      dstAddress: input.dstAddress as Hex,
      payload: keccak256(input.payload as Hex),
    });
    const ours = unsignedTransaction(input.user, lifetime, [...computeBudgetInstructions(MESSAGE_COMPUTE_UNITS), send]);
    const theirs = decoded(vectors.message.tx.data);
    expect(decoded(ours)).toEqual(theirs);
    const chainId = Buffer.alloc(16);
    chainId.writeBigUInt64LE(BigInt(input.dstChainId));
    expect(theirs.instructions[2]).toMatchObject({
      program: vectors.programs.connection,
      data: `392822b2bd0a411a${chainId.toString('hex')}14000000${input.dstAddress.slice(2)}20000000${keccak256(input.payload as Hex).slice(2)}`,
    });
  });
});
