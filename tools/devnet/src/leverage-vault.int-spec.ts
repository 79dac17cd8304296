import { unusedPort } from '@swap/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  parseUnits,
  type Address,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { compileContracts, type Artifacts } from './compile';
import { contractWriter } from './contract-writes';
import { DEV_KEYS, startAnvil, stopAnvil, waitForRpc } from './devnet';

const WAD = 10n ** 18n;
const RAY = 10n ** 27n;

describe('the devnet leveraged-yield vault and its lending pool', () => {
  let node: ChildProcess;
  let client: PublicClient;
  let artifacts: Artifacts;
  const wallets: WalletClient[] = [];
  let weth: Address;
  let usdc: Address;
  let pool: Address;
  let vault: Address;
  const [deployer, alice, bob] = DEV_KEYS.map((k) => privateKeyToAccount(k));

  const writerOf = (i: number) => contractWriter(client, wallets[i], wallets[i].account!, wallets[i].chain!);
  const read = <T>(artifact: keyof Artifacts, address: Address, functionName: string, args: unknown[] = []) =>
    client.readContract({ address, abi: artifacts[artifact].abi, functionName, args }) as Promise<T>;
  const usdcUnitsInWeth = (units: bigint) => read<bigint>('LendingPool', pool, 'convert', [usdc, weth, units]);
  const position = async () => {
    const [collateral, debt, ltvBps, healthFactorWad, idle] = await read<bigint[]>('LeverageVault', vault, 'position');
    return { collateral, debt, ltvBps, healthFactorWad, idle };
  };

  beforeAll(async () => {
    artifacts = compileContracts(mkdtempSync(join(tmpdir(), 'solc-')));
    const port = await unusedPort();
    node = startAnvil(146, port);
    const url = `http://127.0.0.1:${port}`;
    const chain = defineChain({
      id: 146,
      name: 'vault test',
      nativeCurrency: { name: 'S', symbol: 'S', decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    client = createPublicClient({ chain, transport: http(url), pollingInterval: 50 });
    await waitForRpc(client, 146);
    for (const account of [deployer, alice, bob]) wallets.push(createWalletClient({ chain, transport: http(url), account }));
    const admin = writerOf(0);
    weth = await admin.deploy(artifacts.TestToken, ['Wrapped Ether', 'WETH', 18]);
    usdc = await admin.deploy(artifacts.TestToken, ['USD Coin', 'USDC', 6]);
    pool = await admin.deploy(artifacts.LendingPool, [8_000n, 8_500n]);
    // WETH at 3 000 USD, USDC at 1; borrow rate 1% + 20% × utilisation, 10% of it kept by the pool.
    await admin.call(artifacts.LendingPool, pool, 'list', [weth, 18, 3_000n * WAD, RAY / 100n, RAY / 5n, 1_000n]);
    await admin.call(artifacts.LendingPool, pool, 'list', [usdc, 6, WAD, RAY / 100n, RAY / 5n, 1_000n]);
    // Lenders' USDC to borrow, and the swap float.
    await admin.call(artifacts.TestToken, usdc, 'mint', [deployer.address, parseUnits('1000000', 6)]);
    await admin.call(artifacts.TestToken, usdc, 'approve', [pool, parseUnits('1000000', 6)]);
    await admin.call(artifacts.LendingPool, pool, 'supply', [usdc, parseUnits('1000000', 6), deployer.address]);
    await admin.call(artifacts.TestToken, usdc, 'mint', [pool, parseUnits('1000000', 6)]);
    await admin.call(artifacts.TestToken, weth, 'mint', [pool, parseUnits('1000', 18)]);
    vault = await admin.deploy(artifacts.LeverageVault, ['Leveraged WETH', 'lsodaWETH', weth, 18, usdc, pool, 7_000n]);
    for (const [i, who] of [alice, bob].entries()) {
      await admin.call(artifacts.TestToken, weth, 'mint', [who.address, parseUnits('100', 18)]);
      await writerOf(i + 1).call(artifacts.TestToken, weth, 'approve', [vault, 2n ** 256n - 1n]);
    }
  }, 120_000);

  afterAll(async () => {
    if (node) await stopAnvil(node);
  });

  it('refuses a target loan-to-value at or above the pool maximum', async () => {
    await expect(writerOf(0).deploy(artifacts.LeverageVault, ['x', 'x', weth, 18, usdc, pool, 8_000n])).rejects.toThrow(
      /target above the pool's maximum/,
    );
  });

  it("loops a deposit to the target loan-to-value: collateral equity / (1 - L), debt equity × L / (1 - L), at the pool's health factor", async () => {
    const assets = parseUnits('10', 18);
    const shares = await read<bigint>('LeverageVault', vault, 'previewDeposit', [assets]);
    expect(shares).toBe(assets);
    await writerOf(1).call(artifacts.LeverageVault, vault, 'deposit', [assets, alice.address]);

    expect(await read<bigint>('LeverageVault', vault, 'balanceOf', [alice.address])).toBe(shares);
    const p = await position();
    // 10 WETH at 70%: 33.33 WETH supplied, 23.33 WETH (70 000 USDC) borrowed, within a few wei of rounding.
    expect(p.collateral - p.debt).toBeGreaterThan(assets - 10n);
    expect(p.collateral - p.debt).toBeLessThanOrEqual(assets);
    expect(p.debt).toBeGreaterThan((assets * 7n) / 3n - 10n ** 12n);
    expect(p.debt).toBeLessThanOrEqual((assets * 7n) / 3n);
    expect(p.ltvBps).toBeGreaterThanOrEqual(6_999n);
    expect(p.ltvBps).toBeLessThanOrEqual(7_000n);
    // Health factor: collateral × liquidation threshold / debt = 0.85 / 0.70.
    expect(p.healthFactorWad / 10n ** 14n).toBe(12_142n);
    expect(p.idle).toBe(0n);
    expect(await read<bigint>('LeverageVault', vault, 'totalAssets')).toBe(p.collateral - p.debt);
  });

  it('sets supply and borrow rates from utilisation', async () => {
    const borrowed = await read<bigint>('LendingPool', pool, 'borrowed', [usdc, vault]);
    expect(Number(borrowed) / 1e6).toBeCloseTo(70_000, 2);
    const utilisation = (borrowed * RAY) / parseUnits('1000000', 6);
    const borrowRate = RAY / 100n + ((RAY / 5n) * utilisation) / RAY;
    const [supplyRate, borrowRateRead] = await read<bigint[]>('LendingPool', pool, 'rates', [usdc]);
    expect(borrowRateRead).toBe(borrowRate);
    expect(supplyRate).toBe((((borrowRate * utilisation) / RAY) * 9_000n) / 10_000n);
    // Nobody borrows WETH: the base rate, nothing earned by suppliers.
    expect(await read<bigint[]>('LendingPool', pool, 'rates', [weth])).toEqual([0n, RAY / 100n]);
  });

  it("gives a later depositor shares at the vault's price", async () => {
    const before = await read<bigint>('LeverageVault', vault, 'totalAssets');
    const supply = await read<bigint>('LeverageVault', vault, 'totalSupply');
    const assets = parseUnits('5', 18);
    const expected = (assets * (supply + 1n)) / (before + 1n);
    await writerOf(2).call(artifacts.LeverageVault, vault, 'deposit', [assets, bob.address]);
    expect(await read<bigint>('LeverageVault', vault, 'balanceOf', [bob.address])).toBe(expected);
    const p = await position();
    expect(p.ltvBps).toBeGreaterThanOrEqual(6_999n);
    expect(p.ltvBps).toBeLessThanOrEqual(7_000n);
  });

  it('unwinds a withdrawal in proportion and pays the assets, keeping the target loan-to-value', async () => {
    const shares = (await read<bigint>('LeverageVault', vault, 'balanceOf', [alice.address])) / 2n;
    const assets = await read<bigint>('LeverageVault', vault, 'previewRedeem', [shares]);
    const balance = await read<bigint>('TestToken', weth, 'balanceOf', [alice.address]);
    const equityBefore = await read<bigint>('LeverageVault', vault, 'totalAssets');
    await writerOf(1).call(artifacts.LeverageVault, vault, 'redeem', [shares, alice.address, alice.address]);
    expect(await read<bigint>('TestToken', weth, 'balanceOf', [alice.address])).toBe(balance + assets);
    const p = await position();
    expect(p.ltvBps).toBeGreaterThanOrEqual(6_990n);
    expect(p.ltvBps).toBeLessThanOrEqual(7_000n);
    const equityAfter = await read<bigint>('LeverageVault', vault, 'totalAssets');
    // Each unwinding swap rounds down to a unit of USDC: the vault, never the withdrawer, loses a few of them.
    expect(equityBefore - assets - equityAfter).toBeLessThan(await usdcUnitsInWeth(10n));
  });

  it("refuses to redeem more shares than the owner holds, or another owner's without an allowance", async () => {
    const held = await read<bigint>('LeverageVault', vault, 'balanceOf', [alice.address]);
    await expect(writerOf(1).call(artifacts.LeverageVault, vault, 'redeem', [held + 1n, alice.address, alice.address])).rejects.toThrow();
    await expect(writerOf(2).call(artifacts.LeverageVault, vault, 'redeem', [1n, bob.address, alice.address])).rejects.toThrow();
  });

  it('repays all debt when the last shares leave', async () => {
    for (const [i, who] of [alice, bob].entries()) {
      const shares = await read<bigint>('LeverageVault', vault, 'balanceOf', [who.address]);
      await writerOf(i + 1).call(artifacts.LeverageVault, vault, 'redeem', [shares, who.address, who.address]);
    }
    expect(await read<bigint>('LeverageVault', vault, 'totalSupply')).toBe(0n);
    expect(await read<bigint>('LendingPool', pool, 'borrowed', [usdc, vault])).toBe(0n);
    expect((await position()).collateral).toBe(0n);
    const back =
      (await read<bigint>('TestToken', weth, 'balanceOf', [alice.address])) +
      (await read<bigint>('TestToken', weth, 'balanceOf', [bob.address]));
    expect(parseUnits('200', 18) - back).toBeLessThan(await usdcUnitsInWeth(30n));
  });

  it('refuses a borrow past the maximum loan-to-value and reports a health factor below 1 past the liquidation threshold', async () => {
    const w = writerOf(1);
    await w.call(artifacts.TestToken, weth, 'approve', [pool, parseUnits('1', 18)]);
    await w.call(artifacts.LendingPool, pool, 'supply', [weth, parseUnits('1', 18), alice.address]);
    // 1 WETH = 3 000 USD: 2 400 USDC is 80%, one more cent is refused.
    await expect(w.call(artifacts.LendingPool, pool, 'borrow', [usdc, parseUnits('2400.01', 6)])).rejects.toThrow();
    await w.call(artifacts.LendingPool, pool, 'borrow', [usdc, parseUnits('2400', 6)]);
    const [collateralValue, debtValue, ltvBps, health] = await read<bigint[]>('LendingPool', pool, 'accountData', [alice.address]);
    expect([collateralValue, debtValue, ltvBps]).toEqual([3_000n * WAD, 2_400n * WAD, 8_000n]);
    expect(health).toBe((3_000n * WAD * 8_500n) / 2_400n / 10_000n);
    // The price falls 10%: 2 700 × 0.85 / 2 400 < 1.
    await writerOf(0).call(artifacts.LendingPool, pool, 'list', [weth, 18, 2_700n * WAD, RAY / 100n, RAY / 5n, 1_000n]);
    const [, , , after] = await read<bigint[]>('LendingPool', pool, 'accountData', [alice.address]);
    expect(after).toBeLessThan(WAD);
  });
});
