// Regenerate: node libs/chains/src/spokes/vectors/solana.generate.mjs > libs/chains/src/spokes/vectors/solana.json
//
// Runs @sodax/sdk's own SolanaSpokeService.deposit and callWallet (raw provider: unsigned
// transactions) for fixed inputs, offline. The SDK fetches each program's Anchor IDL from
// chain (anchor.Program.fetchIdl); no node is reachable here, so fetchIdl answers with
// solana.idl.json (the mainnet programs' published IDL, `transfer` and `send_message`
// only) and the raw provider's connection answers a fixed blockhash.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import * as anchor from '@coral-xyz/anchor';
import { Keypair, VersionedTransaction } from '@solana/web3.js';

const sdk = await import('@sodax/sdk');
const { spokeChainConfig, SOLANA_MAINNET_CHAIN_ID } = await import('@sodax/types');

const idl = JSON.parse(readFileSync(new URL('./solana.idl.json', import.meta.url), 'utf8'));
const idlByProgram = { [idl.assetManager.address]: idl.assetManager, [idl.connection.address]: idl.connection };
anchor.Program.fetchIdl = async (programId) => idlByProgram[programId.toBase58()] ?? null;

const BLOCKHASH = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N';
const user = Keypair.fromSeed(new Uint8Array(32).fill(7)).publicKey.toBase58();
const chainConfig = { ...spokeChainConfig[SOLANA_MAINNET_CHAIN_ID], rpcUrl: 'http://127.0.0.1:1' };
const provider = new sdk.SolanaRawSpokeProvider({
  connection: { connection: { getLatestBlockhash: async () => ({ blockhash: BLOCKHASH, lastValidBlockHeight: 1 }) } },
  walletAddress: user,
  chainConfig,
});

const hubWallet = '0x1234567890abcdef1234567890abcdef12345678';
const data = '0xdeadbeef00112233445566778899aabbccddeeff';

function decode(base64) {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  const keys = tx.message.staticAccountKeys;
  return {
    numRequiredSignatures: tx.message.header.numRequiredSignatures,
    recentBlockhash: tx.message.recentBlockhash,
    instructions: tx.message.compiledInstructions.map((ix) => ({
      programId: keys[ix.programIdIndex].toBase58(),
      accounts: ix.accountKeyIndexes.map((i) => ({
        address: keys[i].toBase58(),
        signer: tx.message.isAccountSigner(i),
        writable: tx.message.isAccountWritable(i),
      })),
      data: Buffer.from(ix.data).toString('hex'),
    })),
  };
}

const deposits = [];
for (const token of ['11111111111111111111111111111111', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v']) {
  const amount = 1234567n;
  const raw = await sdk.SolanaSpokeService.deposit({ from: user, to: hubWallet, token, amount, data }, provider, undefined, true);
  deposits.push({
    input: { user, token, to: hubWallet, amount: amount.toString(), data },
    tx: { from: raw.from, to: raw.to, data: raw.data },
    decoded: decode(raw.data),
  });
}

const payload = '0xcafe0123456789';
const relayId = 146n;
const callRaw = await sdk.SolanaSpokeService.call(relayId, hubWallet, (await import('viem')).keccak256(payload), provider, true);
const message = {
  input: { user, dstChainId: relayId.toString(), dstAddress: hubWallet, payload },
  tx: { from: callRaw.from, to: callRaw.to, data: callRaw.data },
  decoded: decode(callRaw.data),
};

const addresses = [
  user,
  '11111111111111111111111111111111',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  chainConfig.addresses.assetManager,
].map((address) => ({ address, bytes: sdk.encodeAddress(SOLANA_MAINNET_CHAIN_ID, address) }));

process.stdout.write(
  JSON.stringify(
    {
      source: '@sodax/sdk 1.3.0-beta SolanaSpokeService.deposit / .call (raw), encodeAddress("solana", …)',
      blockhash: BLOCKHASH,
      programs: { assetManager: chainConfig.addresses.assetManager, connection: chainConfig.addresses.connection },
      addresses,
      deposits,
      message,
    },
    null,
    2,
  ) + '\n',
);
