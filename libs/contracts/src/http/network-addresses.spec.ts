import { bech32 } from '@scure/base';
import { Keypair, StrKey } from '@stellar/stellar-sdk';
import { randomBytes } from 'node:crypto';
import { addressProblemOn, canonicalAddress, canonicalTxHash, txHashProblemOn } from './network-addresses';

/*
 * Address and transaction-id rules per network kind. The Stellar strkey check is this
 * project's own (so validating a body does not load the Stellar SDK): it is compared here
 * with the SDK's StrKey on random keys and on every one-character corruption of one.
 */

const problem = (type: string, value: string) => addressProblemOn(type, 'srcAddress', value);

describe('addressProblemOn', () => {
  it('Stellar: agrees with @stellar/stellar-sdk StrKey on random accounts, contracts and their corruptions', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
    for (let i = 0; i < 50; i++) {
      const account = Keypair.random().publicKey();
      const contract = StrKey.encodeContract(randomBytes(32));
      const seed = Keypair.random().secret(); // an S… secret seed is no address
      for (const value of [account, contract, seed]) {
        const official = StrKey.isValidEd25519PublicKey(value) || StrKey.isValidContract(value);
        expect({ value, valid: problem('STELLAR', value) === undefined }).toEqual({ value, valid: official });
      }
      const at = i % account.length;
      const swapped = alphabet[(alphabet.indexOf(account[at]) + 1) % alphabet.length];
      const corrupted = account.slice(0, at) + swapped + account.slice(at + 1);
      expect(problem('STELLAR', corrupted) === undefined).toBe(StrKey.isValidEd25519PublicKey(corrupted));
    }
  });

  it('Stellar: a bad checksum, a secret seed, a short key and a lower-case copy are refused, naming the rule', () => {
    const account = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7';
    expect(problem('STELLAR', account)).toBeUndefined();
    for (const bad of [`${account.slice(0, -1)}8`, Keypair.random().secret(), account.slice(0, 40), account.toLowerCase()]) {
      expect(problem('STELLAR', bad)).toEqual({
        field: 'srcAddress',
        rule: 'stellarAddress',
        message: 'srcAddress must be a Stellar account (G…) or contract (C…) strkey with a valid checksum',
      });
    }
  });

  it('Injective: bech32 inj1… of 20 bytes with its checksum; another prefix, a bad checksum or 32 bytes refused', () => {
    const good = 'inj1dg6tm62uup53wn2kn97caeqfwt0sukx3qjk8rw';
    expect(problem('INJECTIVE', good)).toBeUndefined();
    const cosmos = bech32.encode('cosmos', bech32.decode(good).words);
    const long = bech32.encode('inj', bech32.toWords(randomBytes(32)));
    for (const bad of [
      `${good.slice(0, -1)}x`,
      cosmos,
      long,
      good.toUpperCase().replace('INJ1', 'inj1'),
      good.toUpperCase(),
      '0x0000000000000000000000000000000000000000',
    ]) {
      expect(problem('INJECTIVE', bad)).toMatchObject({ rule: 'injectiveAddress' });
    }
  });

  it('Sui: 0x and 64 hex digits only (a short form or 20 bytes refused)', () => {
    expect(problem('SUI', `0x${'ab'.repeat(32)}`)).toBeUndefined();
    for (const bad of ['0x2', `0x${'ab'.repeat(20)}`, 'ab'.repeat(32), `0x${'zz'.repeat(32)}`]) {
      expect(problem('SUI', bad)).toEqual({
        field: 'srcAddress',
        rule: 'suiAddress',
        message: 'srcAddress must be a Sui address: 0x and 64 hex digits (32 bytes)',
      });
    }
  });

  it('ICON: hx or cx and 40 lower-case hex digits', () => {
    expect(problem('ICON', 'hx9d8a8376e7db9f00478feb9a46f44f0d051aab57')).toBeUndefined();
    expect(problem('ICON', 'cx1be33c283c7dc7617181d1b21a6a2309e71b1ee7')).toBeUndefined();
    for (const bad of ['hx9D8A8376E7DB9F00478FEB9A46F44F0D051AAB57', '0x9d8a8376e7db9f00478feb9a46f44f0d051aab57', 'hx9d8a83']) {
      expect(problem('ICON', bad)).toMatchObject({ rule: 'iconAddress' });
    }
  });

  it('Solana: a base58 key that decodes to 32 bytes (44 characters of z do not)', () => {
    expect(problem('SOLANA', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM')).toBeUndefined();
    expect(problem('SOLANA', 'z'.repeat(44))).toMatchObject({ rule: 'solanaAddress' });
  });
});

describe('txHashProblemOn', () => {
  it('each network’s own transaction id form, named by rule', () => {
    const hex = 'ab'.repeat(32);
    expect(txHashProblemOn('STELLAR', 'txHash', hex)).toBeUndefined();
    expect(txHashProblemOn('STELLAR', 'txHash', `0x${hex}`)).toMatchObject({ rule: 'stellarTxHash' });
    expect(txHashProblemOn('INJECTIVE', 'txHash', hex.toUpperCase())).toBeUndefined();
    expect(txHashProblemOn('INJECTIVE', 'txHash', `0x${hex}`)).toBeUndefined();
    expect(txHashProblemOn('ICON', 'txHash', `0x${hex}`)).toBeUndefined();
    expect(txHashProblemOn('ICON', 'txHash', hex)).toMatchObject({ rule: 'iconTxHash' });
    expect(txHashProblemOn('SUI', 'txHash', 'GvXMeVnK9PQ5bDMtm8rWHgfEKCvf4yUVBdR6pYpBMoAy')).toBeUndefined();
    expect(txHashProblemOn('SUI', 'txHash', hex)).toMatchObject({ rule: 'suiDigest' });
  });
});

describe('canonical forms', () => {
  it('one text per transaction: hex ids in one case (Injective as its chain writes them), base58 as given', () => {
    const hex = 'aB'.repeat(32);
    expect(canonicalTxHash('EVM', `0x${hex}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(canonicalTxHash('ICON', `0x${hex}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(canonicalTxHash('STELLAR', hex)).toBe('ab'.repeat(32));
    expect(canonicalTxHash('INJECTIVE', `0x${hex}`)).toBe('AB'.repeat(32));
    expect(canonicalTxHash('SOLANA', 'AbC')).toBe('AbC');
    expect(canonicalTxHash('SUI', 'AbC')).toBe('AbC');
  });

  it('one text per wallet: EVM and Sui hex in lower case, the others as given', () => {
    expect(canonicalAddress('SUI', `0x${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`);
    expect(canonicalAddress('EVM', '0xAbC')).toBe('0xabc');
    expect(canonicalAddress('SOLANA', 'AbC')).toBe('AbC');
  });
});
