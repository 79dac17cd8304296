import { encodeAssetManagerTransfer, encodeSendMessage, intentHash, relayDataOf, type MinedTransaction } from '@swap/chains';
import { sampleIntent } from '@swap/testing';
import type { Address, Hex } from 'viem';
import { checkSpokeSource } from './source-check';

describe('checkSpokeSource', () => {
  const spoke = {
    assetManager: '0x00000000000000000000000000000000000000a1' as Address,
    connection: '0x00000000000000000000000000000000000000c1' as Address,
  };
  const intents = '0x00000000000000000000000000000000000000e1' as Address;
  const user = '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5' as Address;
  const hubWallet = '0x00000000000000000000000000000000000000b7' as Address;
  // A vault withdrawal: the hub wallet spends its shares; the user signs a message to it.
  const intent = sampleIntent({ creator: hubWallet, inputToken: '0x00000000000000000000000000000000000000f7', srcAddress: user });
  const payload = relayDataOf(intent, { relayChainId: '146', intents }).payload;
  const mined = (to: Address, input: Hex, from: Address = user): MinedTransaction => ({
    status: 'success',
    blockNumber: 1n,
    from,
    to,
    input,
    logs: [],
  });

  it("takes a message from the intent's sender to its hub wallet whose calls create the intent (a vault withdrawal)", () => {
    const verdict = checkSpokeSource(
      mined(spoke.connection, encodeSendMessage(146n, hubWallet, payload)),
      spoke,
      intents,
      '0xa4b1.arbitrum',
    );
    expect(verdict).toEqual({ ok: true, intent, intentHash: intentHash(intent), payload: payload.toLowerCase() });
  });

  it('refuses a message to another hub wallet than the creator, or sent by someone else than the intent names', () => {
    const other = '0x00000000000000000000000000000000000000d9' as Address;
    expect(checkSpokeSource(mined(spoke.connection, encodeSendMessage(146n, other, payload)), spoke, intents, 'x').ok).toBe(false);
    expect(checkSpokeSource(mined(spoke.connection, encodeSendMessage(146n, hubWallet, payload), other), spoke, intents, 'x').ok).toBe(
      false,
    );
  });

  it('refuses a deposit call sent to the connection, and a message sent to the asset manager', () => {
    const deposit = encodeAssetManagerTransfer(intent.inputToken as Address, hubWallet, 1n, payload);
    expect(checkSpokeSource(mined(spoke.connection, deposit), spoke, intents, 'x').ok).toBe(false);
    expect(checkSpokeSource(mined(spoke.assetManager, encodeSendMessage(146n, hubWallet, payload)), spoke, intents, 'x').ok).toBe(false);
    expect(checkSpokeSource(mined(spoke.assetManager, deposit), spoke, intents, 'x').ok).toBe(true);
  });
});
