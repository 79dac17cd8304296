import { base58 } from '@scure/base';
import { keccak256, toHex, type Hex } from 'viem';
import { HUB_WALLET, NETWORK, payloadOf, settlement, spokeIntent, type Settlement } from './settlement.doubles';

/**
 * A swap whose source is on a network other than EVM (Solana here; every such network goes
 * through the same adapter interface): the adapter's check of the transaction decides
 * pending → relaying or failed, like an EVM receipt does.
 */
describe('settlement: a source on a network other than EVM, checked by its adapter', () => {
  const NOW = Date.parse('2025-11-22T12:50:00.000Z');
  const SENDER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
  // The key's 32 bytes, decoded here by another base58 implementation than the adapter's.
  const SENDER_BYTES = toHex(base58.decode(SENDER));
  const SIGNATURE = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW';
  const intent = spokeIntent({ srcChain: NETWORK.relayChainId, srcAddress: SENDER_BYTES });
  const payload = payloadOf(intent) as Hex;
  const deposit = { token: '11111111111111111111111111111111', amount: 2_500_000n, to: HUB_WALLET.toLowerCase() as Hex };
  let s: Settlement;
  let id: string;

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW });
    s = settlement();
    id = s.store.submitted(intent, { txHash: SIGNATURE, srcChainKey: NETWORK.key, walletAddress: SENDER }).id;
  });

  afterEach(() => jest.useRealTimers());

  const sourceIs = (check: Parameters<Settlement['chains']['access']['networkSources']['set']>[1]) =>
    s.chains.access.networkSources.set(`${NETWORK.key}:${SIGNATURE}`, check);
  const outcome = () => {
    const row = s.store.get(id);
    return { status: row.status, userMessage: row.userMessage, verified: row.verified, walletAddress: row.walletAddress };
  };

  it('a successful deposit carrying the hub calls: relaying, verified, handed to the relay with its payload', async () => {
    sourceIs({ found: true, success: true, sender: SENDER, deposit: { ...deposit, data: payload } });

    await s.run(id);

    expect(outcome()).toEqual({ status: 'relaying', userMessage: null, verified: true, walletAddress: SENDER });
    expect((s.store.get(id).history as unknown[]).at(-1)).toMatchObject({
      status: 'relaying',
      detail: 'source transaction confirmed; handed to the relay',
    });
    expect(s.chains.access.reads).toEqual([{ chain: NETWORK.key, read: 'checkSource', txHash: SIGNATURE }]);
    expect(s.chains.relay.submits).toEqual([{ chainId: NETWORK.relayChainId, txHash: SIGNATURE, data: { address: HUB_WALLET, payload } }]);
  });

  it('a deposit holding only the calls’ hash: the submitted relay data is taken when it hashes to it', async () => {
    sourceIs({ found: true, success: true, sender: SENDER, deposit: { ...deposit, dataHash: keccak256(payload) } });

    await s.run(id);

    expect(outcome()).toMatchObject({ status: 'relaying', verified: true });
  });

  it('relay data that does not hash to what the deposit holds: failed, asking for the build’s relayData', async () => {
    sourceIs({ found: true, success: true, sender: SENDER, deposit: { ...deposit, dataHash: keccak256('0x01') } });

    await s.run(id);

    expect(outcome()).toMatchObject({
      status: 'failed',
      userMessage:
        'The relay data submitted with this solana transaction is not what the transaction carries: submit it again with the relayData its build answered. Nothing was swapped yet.',
    });
    expect(s.chains.relay.submits).toEqual([]);
  });

  it('a message to the hub wallet (a vault withdrawal, its calls by hash): relaying; a message to another wallet is not a swap', async () => {
    sourceIs({
      found: true,
      success: true,
      sender: SENDER,
      message: { to: HUB_WALLET.toLowerCase() as Hex, dataHash: keccak256(payload) },
    });

    await s.run(id);

    expect(outcome()).toMatchObject({ status: 'relaying', verified: true });
    expect(s.chains.relay.submits).toEqual([{ chainId: NETWORK.relayChainId, txHash: SIGNATURE, data: { address: HUB_WALLET, payload } }]);

    const second = s.store.submitted(intent, { txHash: `${SIGNATURE.slice(0, -1)}V`, srcChainKey: NETWORK.key });
    s.chains.access.networkSources.set(`${NETWORK.key}:${second.txHash}`, {
      found: true,
      success: true,
      sender: SENDER,
      message: { to: '0x00000000000000000000000000000000000000aa', data: payload },
    });
    await s.run(second.id);
    expect(s.store.get(second.id)).toMatchObject({
      status: 'failed',
      userMessage: expect.stringMatching(/is not a swap the platform built/),
    });
  });

  it('failed on chain: failed at pending with the network’s reason, nothing handed on', async () => {
    sourceIs({ found: true, success: false, sender: SENDER, reason: 'insufficient funds for rent' });

    await s.run(id);

    expect(outcome()).toMatchObject({
      status: 'failed',
      userMessage: 'Your transaction on solana failed (insufficient funds for rent), so nothing was deposited and no swap was opened.',
    });
    expect(s.store.get(id).failedAtStep).toBe('pending');
    expect(s.chains.relay.submits).toEqual([]);
    expect(s.marketplace.requests).toEqual([]);
  });

  it('sent by another wallet than the intent names: failed, naming the sender', async () => {
    const other = 'GxS8i6D9qQjbSeniD487CnomUxU2pXt6V8P96T6MkUXB';
    sourceIs({ found: true, success: true, sender: other, deposit: { ...deposit, data: payload } });

    await s.run(id);

    expect(outcome()).toMatchObject({
      status: 'failed',
      userMessage: `This transaction on solana was sent by ${other}, not by the wallet the swap was built for, so it is not this swap. Nothing was swapped.`,
    });
  });

  it('not a deposit, or a deposit to another hub wallet: failed as not a swap', async () => {
    sourceIs({ found: true, success: true, sender: SENDER });
    await s.run(id);
    expect(outcome()).toMatchObject({
      status: 'failed',
      userMessage: expect.stringMatching(/^This transaction on solana is not a swap the platform built/),
    });

    const second = s.store.submitted(intent, { txHash: `${SIGNATURE.slice(0, -1)}V`, srcChainKey: NETWORK.key });
    s.chains.access.networkSources.set(`${NETWORK.key}:${second.txHash}`, {
      found: true,
      success: true,
      sender: SENDER,
      deposit: { ...deposit, to: '0x00000000000000000000000000000000000000aa', data: payload },
    });
    await s.run(second.id);
    expect(s.store.get(second.id)).toMatchObject({
      status: 'failed',
      userMessage: expect.stringMatching(/is not a swap the platform built/),
    });
  });

  it('not found yet: waits within the window, like an EVM source', async () => {
    await s.run(id);

    expect(s.store.get(id)).toMatchObject({ status: 'pending', notFoundSince: new Date(NOW) });
    expect(s.chains.relay.submits).toEqual([]);
  });

  it('the network’s RPC down: nothing learnt, retried with back-off, never failed for it', async () => {
    s.chains.access.down = true;

    await s.run(id);

    expect(s.store.get(id)).toMatchObject({ status: 'pending', notFoundSince: null, processingAttempts: 1, userMessage: null });
  });
});
