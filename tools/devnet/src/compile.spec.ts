import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toFunctionSelector } from 'viem';
import { INTENTS_ABI, LENDING_POOL_ABI, LEVERAGE_VAULT_ABI } from '@swap/chains';
import { compileContracts } from './compile';

describe('the devnet contracts', () => {
  it('compile with solc and expose the protocol selectors of protocol-facts.md', () => {
    const artifacts = compileContracts(mkdtempSync(join(tmpdir(), 'solc-')));
    const selectors = (name: keyof typeof artifacts) =>
      artifacts[name].abi.filter((x) => x.type === 'function').map((f) => toFunctionSelector(f as never));
    expect(selectors('Intents')).toEqual(expect.arrayContaining(['0x016f02e3', '0xca25d319']));
    expect(selectors('AssetManager')).toContain('0xc6b4180b');
    expect(selectors('Connection')).toContain('0x6ea9cec9');
    expect(selectors('HubWalletFactory')).toContain('0x18d02486');
    // The solver's call is the one the platform's ABI (and the public client's) encodes.
    expect(selectors('Intents')).toContain(
      toFunctionSelector(INTENTS_ABI.find((f) => f.type === 'function' && f.name === 'fillIntent') as never),
    );
    expect(artifacts.TestToken.bytecode.length).toBeGreaterThan(100);
    // The services' reads of a vault and its pool are calls the devnet contracts answer.
    expect(selectors('LeverageVault')).toEqual(expect.arrayContaining(LEVERAGE_VAULT_ABI.map((f) => toFunctionSelector(f))));
    expect(selectors('LendingPool')).toEqual(expect.arrayContaining(LENDING_POOL_ABI.map((f) => toFunctionSelector(f))));
  }, 120_000);
});
