import { sampleIntent } from '@swap/testing';
import { decodeFunctionData, erc20Abi, type Address } from 'viem';
import { decodeHubCalls, encodeCreateIntent, INTENTS_ABI, partnerFeeData, partnerFeeOf, relayDataOf } from './protocol-calls';

const hub = { relayChainId: '146', intents: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef' as Address };
const receiver = '0x00000000000000000000000000000000000fee01' as Address;

describe('relay data of an intent (protocol-facts.md)', () => {
  it('reads the partner fee from intent.data, and 0 from anything else', () => {
    expect(partnerFeeOf(partnerFeeData(1234n, receiver))).toBe(1234n);
    expect(partnerFeeOf('0x')).toBe(0n);
    expect(partnerFeeOf('0x02')).toBe(0n);
  });

  it('from the hub: the createIntent call, to the intents contract', () => {
    const intent = sampleIntent({ srcChain: '146' });
    expect(relayDataOf(intent, hub)).toEqual({ address: hub.intents, payload: encodeCreateIntent(intent) });
  });

  it('from a spoke: the hub wallet approves input plus fee to the intents contract, then creates the intent', () => {
    const intent = sampleIntent({ inputAmount: '1000000', data: partnerFeeData(5000n, receiver) });
    const relay = relayDataOf(intent, hub);
    expect(relay.address).toBe(intent.creator);
    const [approve, create] = decodeHubCalls(relay.payload);
    expect(approve.target.toLowerCase()).toBe(intent.inputToken.toLowerCase());
    expect(decodeFunctionData({ abi: erc20Abi, data: approve.data })).toEqual({ functionName: 'approve', args: [hub.intents, 1_005_000n] });
    expect(create.target).toBe(hub.intents);
    expect(decodeFunctionData({ abi: INTENTS_ABI, data: create.data }).functionName).toBe('createIntent');
  });
});
