import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

export type Artifacts = Record<
  'TestToken' | 'Intents' | 'HubWalletFactory' | 'HubEntry' | 'Connection' | 'AssetManager' | 'LendingPool' | 'LeverageVault',
  Artifact
>;

export const CONTRACTS_DIR = join(__dirname, '..', 'contracts');

/** Offline with solc-js, cached under `cacheDir` by the sources' hash. */
export function compileContracts(cacheDir: string): Artifacts {
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(CONTRACTS_DIR)
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[file] = { content: readFileSync(join(CONTRACTS_DIR, file), 'utf8') };
  }
  const hash = createHash('sha256').update(JSON.stringify(sources)).digest('hex').slice(0, 16);
  const cached = join(cacheDir, `artifacts-${hash}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, 'utf8')) as Artifacts;

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const pick = (file: string, name: string): Artifact => ({
    abi: output.contracts[file][name].abi,
    bytecode: `0x${output.contracts[file][name].evm.bytecode.object}`,
  });
  const artifacts: Artifacts = {
    TestToken: pick('TestToken.sol', 'TestToken'),
    Intents: pick('Intents.sol', 'Intents'),
    HubWalletFactory: pick('HubWalletFactory.sol', 'HubWalletFactory'),
    HubEntry: pick('HubEntry.sol', 'HubEntry'),
    Connection: pick('Spoke.sol', 'Connection'),
    AssetManager: pick('Spoke.sol', 'AssetManager'),
    LendingPool: pick('LendingPool.sol', 'LendingPool'),
    LeverageVault: pick('LeverageVault.sol', 'LeverageVault'),
  };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(cached, JSON.stringify(artifacts));
  return artifacts;
}
