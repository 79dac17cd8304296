// Vectors: node libs/chains/src/spokes/vectors/solana.generate.mjs > libs/chains/src/spokes/vectors/solana.json
import {
  AccountRole,
  decompileTransactionMessage,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  signTransaction,
  type Instruction,
} from '@solana/kit';
import { spokeNetworkOf, type ChainInfo, type SpokeAdapter } from '@swap/chains';
import { AppError, type NetworkTx } from '@swap/contracts';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keccak256, type Hex } from 'viem';
import { SolanaRpcDouble } from './solana-rpc-double';

/** The public client's own deposits and message for fixed inputs (libs/chains/src/spokes/vectors). */
const vectors = JSON.parse(
  readFileSync(join(__dirname, '../../../libs/chains/src/spokes/vectors/solana.json'), 'utf8'),
) as typeof import('../../../libs/chains/src/spokes/vectors/solana.json');
const SOLANA = spokeNetworkOf('SOLANA')!;

function chainAt(url: string): ChainInfo {
  return {
    key: 'solana',
    name: 'Solana',
    type: 'SOLANA',
    chainId: 'solana',
    relayChainId: '1',
    hub: false,
    assetManager: vectors.programs.assetManager,
    connection: vectors.programs.connection,
    aliases: [],
    rpcUrls: [url],
  } as ChainInfo;
}

/** The instructions a wallet sees in a wire transaction (decoded with @solana/kit). */
function instructionsOf(base64: string) {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(transaction.messageBytes));
  return {
    feePayer: message.feePayer.address,
    signatures: Object.values(transaction.signatures),
    instructions: (message.instructions as readonly Instruction[]).map((ix) => ({
      program: ix.programAddress,
      accounts: (ix.accounts ?? []).map((a) => ({ address: a.address, role: AccountRole[a.role] })),
      data: Buffer.from(ix.data ?? []).toString('hex'),
    })),
  };
}

async function signed(tx: NetworkTx, keyPair: Awaited<ReturnType<typeof generateKeyPair>>) {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(tx.data));
  return getBase64EncodedWireTransaction(await signTransaction([keyPair], transaction));
}

describe('SolanaAdapter against the Solana RPC double', () => {
  const double = new SolanaRpcDouble();
  let adapter: SpokeAdapter;

  beforeAll(async () => {
    await double.start();
    adapter = SOLANA.createAdapter(chainAt(double.url), { timeoutMs: 2_000 });
  });
  afterAll(() => double.stop());

  it.each(vectors.deposits.map((d) => [d.input.token, d] as const))(
    'a deposit of %s: the public client’s instructions, unsigned, with the double’s blockhash',
    async (_token, vector) => {
      const { input } = vector;
      const tx = await adapter.buildDeposit({
        user: input.user,
        token: input.token,
        to: input.to as Hex,
        amount: BigInt(input.amount),
        data: input.data as Hex,
      });
      expect(tx).toMatchObject({ from: input.user, to: vectors.programs.assetManager, encoding: 'base64' });
      const ours = instructionsOf(tx.data);
      const theirs = instructionsOf(vector.tx.data);
      expect(ours).toEqual({ ...theirs, signatures: [null] });
      const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(tx.data));
      const message = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
      expect(message.lifetimeToken).toBe(tx.recentBlockhash);
    },
  );

  it('a message: the public client’s send_message to the hub', async () => {
    const { input } = vectors.message;
    const tx = await adapter.buildMessage({
      user: input.user,
      dstChainId: BigInt(input.dstChainId),
      dstAddress: input.dstAddress as Hex,
      payload: input.payload as Hex,
    });
    expect(tx).toMatchObject({ from: input.user, to: vectors.programs.connection, encoding: 'base64' });
    expect(instructionsOf(tx.data)).toEqual({ ...instructionsOf(vectors.message.tx.data), signatures: [null] });
  });

  it('feeOf: 5 000 lamports for the one signature a deposit needs', async () => {
    const [vector] = vectors.deposits;
    const tx = await adapter.buildDeposit({ ...vector.input, to: vector.input.to as Hex, data: vector.input.data as Hex, amount: 1n });
    await expect(adapter.feeOf(tx)).resolves.toEqual({ gas: '1', price: '5000', fee: '5000', unit: 'lamports' });
  });

  it('feeOf: a transaction that is not one, or not base64, is a 400 naming the field', async () => {
    const garbage = adapter.feeOf({ from: 'x', to: 'y', encoding: 'base64', data: 'bm90IGEgdHJhbnNhY3Rpb24=' });
    await expect(garbage).rejects.toBeInstanceOf(AppError);
    await expect(garbage).rejects.toMatchObject({ status: 400, details: [{ field: 'tx.data', rule: 'solanaTransaction' }] });
    await expect(adapter.feeOf({ from: 'x', to: 'y', encoding: 'json', data: '{}' })).rejects.toMatchObject({
      status: 400,
      details: [{ field: 'tx.encoding' }],
    });
  });

  it('feeOf: a transaction sent with another sender, or with no signer (another network’s bytes), is a 400', async () => {
    const [vector] = vectors.deposits;
    const tx = await adapter.buildDeposit({ ...vector.input, to: vector.input.to as Hex, data: vector.input.data as Hex, amount: 1n });
    await expect(adapter.feeOf({ ...tx, from: '11111111111111111111111111111111' })).rejects.toMatchObject({
      status: 400,
      details: [{ field: 'tx.from', rule: 'feePayer' }],
    });
    // A Solana transaction needs at least one signature: a count of 0, then message bytes, is something else.
    const unsigned = Buffer.concat([Buffer.from([0, 0x80, 0, 0, 0]), Buffer.alloc(40)]).toString('base64');
    await expect(adapter.feeOf({ ...tx, data: unsigned })).rejects.toMatchObject({ status: 400, details: [{ field: 'tx.data' }] });
  });

  describe('checkSource', () => {
    it('a landed deposit: its signer, and what the asset manager received (keccak256 of the hub calls)', async () => {
      const keyPair = await generateKeyPair();
      const user = await getAddressFromPublicKey(keyPair.publicKey);
      const data = '0x0102030405' as Hex;
      const to = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd' as Hex;
      const token = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
      const tx = await adapter.buildDeposit({ user, token, to, amount: 42_000_000n, data });
      const txId = double.seedTransaction({ wire: await signed(tx, keyPair) });
      await expect(adapter.checkSource(txId)).resolves.toEqual({
        found: true,
        success: true,
        sender: user,
        deposit: { token, amount: 42_000_000n, to, dataHash: keccak256(data) },
      });
    });

    it('a landed native deposit names the native token', async () => {
      const keyPair = await generateKeyPair();
      const user = await getAddressFromPublicKey(keyPair.publicKey);
      const to = '0x1111111111111111111111111111111111111111' as Hex;
      const tx = await adapter.buildDeposit({ user, token: '11111111111111111111111111111111', to, amount: 7n, data: '0x' });
      const txId = double.seedTransaction({ wire: await signed(tx, keyPair) });
      await expect(adapter.checkSource(txId)).resolves.toMatchObject({
        success: true,
        deposit: { token: '11111111111111111111111111111111', amount: 7n, to, dataHash: keccak256('0x') },
      });
    });

    it('a failed transaction: its signer and the program’s error', async () => {
      const keyPair = await generateKeyPair();
      const user = await getAddressFromPublicKey(keyPair.publicKey);
      const tx = await adapter.buildMessage({ user, dstChainId: 146n, dstAddress: `0x${'22'.repeat(20)}`, payload: '0x01' });
      const txId = double.seedTransaction({ wire: await signed(tx, keyPair), err: { InstructionError: [2, { Custom: 6014 }] } });
      const check = await adapter.checkSource(txId);
      expect(check).toMatchObject({ found: true, success: false, sender: user });
      expect(check.found && !check.success && check.reason).toContain('6014');
    });

    it('a message that landed (a vault withdrawal): the hub wallet it went to and keccak256 of its calls', async () => {
      const keyPair = await generateKeyPair();
      const user = await getAddressFromPublicKey(keyPair.publicKey);
      const tx = await adapter.buildMessage({ user, dstChainId: 146n, dstAddress: `0x${'33'.repeat(20)}`, payload: '0x02' });
      const txId = double.seedTransaction({ wire: await signed(tx, keyPair) });
      await expect(adapter.checkSource(txId)).resolves.toEqual({
        found: true,
        success: true,
        sender: user,
        message: { to: `0x${'33'.repeat(20)}`, dataHash: keccak256('0x02') },
      });
    });

    it('an unknown signature is not found; a malformed one is a 400', async () => {
      await expect(adapter.checkSource(getBase58Decoder().decode(randomBytes(64)))).resolves.toEqual({ found: false });
      await expect(adapter.checkSource('not-a-signature')).rejects.toMatchObject({ status: 400 });
    });
  });

  it('an RPC that is gone: a plain error, quickly', async () => {
    const gone = new SolanaRpcDouble();
    await gone.start();
    await gone.stop();
    const offline = SOLANA.createAdapter(chainAt(gone.url), { timeoutMs: 1_000 });
    const started = Date.now();
    const [vector] = vectors.deposits;
    const failure = await offline
      .buildDeposit({ ...vector.input, to: vector.input.to as Hex, data: vector.input.data as Hex, amount: 1n })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // fetch's TypeError comes from Node's own realm, not jest's: checked by shape, not instanceof Error.
    expect(failure).toMatchObject({ message: expect.any(String) });
    expect(failure).not.toBeInstanceOf(AppError);
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(offline.checkSource(getBase58Decoder().decode(randomBytes(64)))).rejects.not.toBeInstanceOf(AppError);
  });
});
