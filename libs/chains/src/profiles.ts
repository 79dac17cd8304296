import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ChainDirectory, type ChainProfile } from './chain-directory';
import mainnet from './profiles/mainnet.json';

const BUILT_IN: Record<string, ChainProfile> = { mainnet: mainnet as ChainProfile };

/** A built-in profile (`mainnet`) or a JSON file of the same shape (an operator's list, the devnet's). */
export function loadChainDirectory(profileOrPath: string): ChainDirectory {
  const builtIn = BUILT_IN[profileOrPath];
  // A copy: a directory may be adjusted by its service (RPC endpoints) without touching others.
  if (builtIn) return new ChainDirectory(structuredClone(builtIn));
  const path = isAbsolute(profileOrPath) ? profileOrPath : resolve(process.cwd(), profileOrPath);
  let profile: ChainProfile;
  try {
    profile = JSON.parse(readFileSync(path, 'utf8')) as ChainProfile;
  } catch (error) {
    throw new Error(`Cannot read chain profile ${profileOrPath}: ${(error as Error).message}`, { cause: error });
  }
  return new ChainDirectory(profile);
}
