import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

function optionsFor(logN: number): ScryptOptions {
  const N = 2 ** logN;
  // scrypt needs 128 · N · r bytes; Node refuses above maxmem (32 MiB by default).
  return { N, r: 8, p: 1, maxmem: 256 * N * 8 };
}

/** A memory-hard hash of a password: `scrypt$<logN>$<r>$<p>$<salt>$<hash>`, base64url parts. */
export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = randomBytes(16);
  const options = optionsFor(logN);
  const key = await scrypt(password, salt, options);
  return ['scrypt', logN, options.r, options.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time; a malformed record never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), { ...optionsFor(Number(logN)), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Something to compare against when the email is unknown, so a miss costs what a wrong password does. */
export async function decoyHash(logN: number): Promise<string> {
  return hashPassword(randomBytes(12).toString('base64url'), logN);
}
