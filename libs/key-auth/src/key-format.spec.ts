import { createHash } from 'node:crypto';
import { hashKey, mintKey } from './key-format';

describe('key format', () => {
  it('mints svc_ + 32 random bytes in base64url, with an eight-character displayed prefix', () => {
    const { key, hash, displayPrefix } = mintKey('portal');
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    expect(displayPrefix).toBe(key.slice(0, 12));
    expect(hash).toBe(createHash('sha256').update(key).digest('hex'));
  });

  it('mints sponsoring keys with their own prefix', () => {
    const { key } = mintKey('sponsoring');
    expect(key).toMatch(/^spk_[A-Za-z0-9_-]{43}$/);
  });

  it('never mints the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => mintKey('portal').key));
    expect(keys.size).toBe(1000);
  });

  it('hashes as SHA-256 hex (the well-known digest of "abc")', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
