// Vectors: node libs/chains/src/spokes/vectors/intents.generate.mjs > libs/chains/src/spokes/vectors/intents.json
// (the public client @sodax/sdk's own intent, hub calls, intent hash and cancel calls for a swap from each network).
import type { Intent } from '@swap/contracts';
import type { ChainType } from '../chain-directory';
import { intentHash } from '../intent';
import { decodeHubCalls, encodeCancelIntent, relayDataOf } from '../protocol-calls';
import { loadChainDirectory } from '../profiles';
import vectors from './vectors/intents.json';
import { addressOfBytesOn, SPOKE_NETWORKS } from './index';

const mainnet = loadChainDirectory('mainnet');

describe.each(vectors.vectors.map((v) => [v.chain, v] as const))('a swap from %s, as the public client builds it', (key, v) => {
  const chain = mainnet.getChain(key);
  const network = SPOKE_NETWORKS[chain.type as ChainType]!;
  const intent = v.intent as unknown as Intent;

  it('the sender travels in the intent as the client encodes it, and back', () => {
    expect(network.addressBytes(v.user)).toBe(v.userBytes.toLowerCase());
    expect(v.intent.srcAddress.toLowerCase()).toBe(v.userBytes.toLowerCase());
    expect(network.addressOfBytes(v.userBytes as `0x${string}`)).toBe(v.user);
    expect(addressOfBytesOn(chain.type, v.userBytes.toLowerCase())).toBe(v.user);
  });

  it('the intent names the hub asset and relay chain this platform’s mainnet profile gives', () => {
    expect(mainnet.findToken(key, v.token)?.hubAsset.toLowerCase()).toBe(v.intent.inputToken.toLowerCase());
    expect(v.intent.srcChain).toBe(chain.relayChainId);
  });

  it('the hub calls deposited with it (approve, createIntent) and its hash are the same bytes', () => {
    expect(relayDataOf(intent, { relayChainId: '146', intents: vectors.intents as `0x${string}` }).payload.toLowerCase()).toBe(
      v.payload.toLowerCase(),
    );
    expect(intentHash(intent)).toBe(v.intentHash);
  });

  it('its cancel from the spoke: the client’s one hub call, cancelIntent, is the first of this platform’s, byte for byte', () => {
    // This platform's cancel adds the refund to the sender's spoke after it (docs/architecture/chains.md#cancelling-an-intent).
    const calls = decodeHubCalls(v.cancelPayload as `0x${string}`);
    expect(calls.map((c) => ({ target: c.target.toLowerCase(), value: c.value, data: c.data.toLowerCase() }))).toEqual([
      { target: vectors.intents.toLowerCase(), value: 0n, data: encodeCancelIntent(intent).toLowerCase() },
    ]);
  });
});

describe('addressOfBytesOn', () => {
  it('writes EVM bytes in EIP-55, and leaves bytes that are no address of the network as they are', () => {
    expect(addressOfBytesOn('EVM', '0x6f2d8b8e7b0d9f1a4e5c3b2a19080706050403ab')).toBe('0x6F2d8B8e7b0d9F1a4e5c3B2A19080706050403ab');
    expect(addressOfBytesOn('EVM', '0x6f2d8b')).toBe('0x6f2d8b');
    expect(addressOfBytesOn('SOLANA', '0x6f2d8b8e7b0d9f1a4e5c3b2a19080706050403ab')).toBe('0x6f2d8b8e7b0d9f1a4e5c3b2a19080706050403ab');
    expect(addressOfBytesOn('ICON', '0x6f2')).toBe('0x6f2');
    expect(addressOfBytesOn('NEAR', '0x616c696365')).toBe('0x616c696365');
  });
});
