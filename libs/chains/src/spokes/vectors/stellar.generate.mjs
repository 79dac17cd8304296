// Regenerate: node libs/chains/src/spokes/vectors/stellar.generate.mjs > libs/chains/src/spokes/vectors/stellar.json
/* global Buffer, console */
//
// The public client's own Stellar deposit and message (@sodax/sdk StellarSpokeService in
// raw mode) for fixed inputs, with no internet: the provider's Horizon account read and
// Soroban RPC calls answer from this script (a fixed sequence, mainnet's passphrase, and a
// constructed simulation built with @stellar/stellar-sdk). The clock is fixed so the
// transactions' time bounds are reproducible.
import * as sdk from '@sodax/sdk';
import { createRequire } from 'node:module';
import { Address, Contract, Keypair, Networks, SorobanDataBuilder, TransactionBuilder, xdr } from '@stellar/stellar-sdk';

const NOW_MS = 1_790_000_000_000;
Date.now = () => NOW_MS;

const chainConfig = sdk.spokeChainConfig[sdk.STELLAR_MAINNET_CHAIN_ID];
const user = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 1)).publicKey();
const sequence = '123456789012';
const hubWallet = '0x1234567890abcdef1234567890abcdef12345678';

/** A constructed simulation: the invoked contract's instance read, one entry written, the caller's source-account auth. */
function simulationFor(envelopeXdr) {
  const tx = TransactionBuilder.fromXDR(envelopeXdr, Networks.PUBLIC);
  const invoke = tx.operations[0].func.invokeContract;
  const contract = Address.fromScAddress(invoke.contractAddress).toString();
  const written = xdr.LedgerKey.contractData(
    new xdr.LedgerKeyContractData({
      contract: invoke.contractAddress,
      key: xdr.ScVal.scvSymbol('Balance'),
      durability: xdr.ContractDataDurability.persistent,
    }),
  );
  const transactionData = new SorobanDataBuilder()
    .setResources(1_500_000, 2_000, 400)
    .setResourceFee(87_654n)
    .setReadOnly([new Contract(contract).getFootprint()])
    .setReadWrite([written])
    .build();
  const auth = new xdr.SorobanAuthorizationEntry({
    credentials: xdr.SorobanCredentials.sorobanCredentialsSourceAccount(),
    rootInvocation: new xdr.SorobanAuthorizedInvocation({
      function: xdr.SorobanAuthorizedFunction.sorobanAuthorizedFunctionTypeContractFn(invoke),
      subInvocations: [],
    }),
  });
  return {
    latestLedger: 55_000_000,
    minResourceFee: '87654',
    transactionData: transactionData.toXdr('base64'),
    results: [{ auth: [auth.toXdr('base64')], xdr: xdr.ScVal.scvVoid().toXdr('base64') }],
    events: [],
  };
}

const provider = new sdk.StellarRawSpokeProvider(user, chainConfig);
provider.server.loadAccount = async (accountId) => ({ account_id: accountId, sequence });
provider.sorobanServer.getNetwork = async () => ({ passphrase: Networks.PUBLIC });
const simulations = [];
provider.sorobanServer.simulateTransaction = async (tx) => {
  const simulation = simulationFor(tx.toXDR());
  simulations.push(simulation);
  return simulation;
};

/**
 * What the public client submits after signing (its non-raw path): the raw transaction
 * assembled with the simulation by the SDK's own copy of @stellar/stellar-sdk, as its
 * deposit and sendMessage do (SorobanRpc.assembleTransaction).
 */
const sdkStellarPath = createRequire(createRequire(import.meta.url).resolve('@sodax/sdk')).resolve('@stellar/stellar-sdk');
const sdkStellar = await import(sdkStellarPath);
function assembled(rawXdr, simulation) {
  const raw = sdkStellar.TransactionBuilder.fromXDR(rawXdr, Networks.PUBLIC);
  return sdkStellar.SorobanRpc.assembleTransaction(raw, simulation).build().toXDR();
}

const deposits = [];
for (const [token, amount, data] of [
  ['CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA', 12_345_678n, `0x${'ab'.repeat(40)}01`],
  ['CCW67TSZV3SSS2HXMBQ5JFGCKJNXKZM7UQUWUZPUTHXSTZLEO7SJMI75', (1n << 127n) + 5n, '0x'],
]) {
  simulations.length = 0;
  const raw = await sdk.StellarSpokeService.deposit({ from: user, token, amount, to: hubWallet, data }, provider, undefined, true);
  deposits.push({
    input: { user, token, to: hubWallet, amount: amount.toString(), data },
    sdk: { from: raw.from, to: raw.to, value: raw.value.toString(), data: raw.data },
    simulation: simulations.at(-1),
    assembled: assembled(raw.data, simulations.at(-1)),
  });
}

simulations.length = 0;
const payload = `0x${'cd'.repeat(64)}`;
const sent = await sdk.StellarSpokeService.call(146n, hubWallet, payload, provider, true);
const message = {
  input: { user, dstChainId: '146', dstAddress: hubWallet, payload },
  sdk: { from: sent.from, to: sent.to, value: sent.value.toString(), data: sent.data },
  simulation: simulations.at(-1),
  assembled: assembled(sent.data, simulations.at(-1)),
};

const addresses = [
  user,
  Keypair.fromRawEd25519Seed(Buffer.alloc(32, 2)).publicKey(),
  'GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWHF',
  chainConfig.addresses.assetManager,
  chainConfig.addresses.connection,
  'CAS3J7GYLGXMF6TDJBBYYSE3HQ6BBSMLNUQ34T6TZMYMW2EVH34XOWMA',
].map((address) => ({ address, bytes: sdk.encodeAddress('stellar', address) }));

console.log(
  JSON.stringify(
    {
      generatedBy: 'libs/chains/src/spokes/vectors/stellar.generate.mjs',
      sdk: '@sodax/sdk StellarSpokeService.deposit / .call, raw mode',
      nowMs: NOW_MS,
      networkPassphrase: Networks.PUBLIC,
      sequence,
      constants: {
        assetManager: chainConfig.addresses.assetManager,
        connection: chainConfig.addresses.connection,
        STELLAR_PRIORITY_FEE: sdk.STELLAR_PRIORITY_FEE,
        STELLAR_DEFAULT_TX_TIMEOUT_SECONDS: sdk.STELLAR_DEFAULT_TX_TIMEOUT_SECONDS,
      },
      addresses,
      deposits,
      message,
    },
    null,
    2,
  ),
);
