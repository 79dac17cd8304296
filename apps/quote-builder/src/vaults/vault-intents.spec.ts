import { ChainAccess } from '@swap/chains';
import { loadConfig } from '@swap/config';
import { AppError, type DepositIntentRequest } from '@swap/contracts';
import { ServiceMetrics } from '@swap/observability';
import { testSigningKeysEnv } from '@swap/testing';
import { getAddress } from 'viem';
import { ChainCatalog } from '../chain-catalog/chain-catalog';
import type { HubIntentStates } from '../executions/hub-intent-states';
import { HubWallets } from '../intents/hub-wallets';
import { IntentBuilderService } from '../intents/intent-builder.service';
import { QuoteBuilderConfig } from '../quote-builder.config';
import type { QuoteService } from '../quotes/quote.service';
import { VaultIntentsService } from './vault-intents.service';

describe('VaultIntentsService on the mainnet profile (no chain reads)', () => {
  const config = loadConfig(QuoteBuilderConfig, testSigningKeysEnv);
  const catalog = new ChainCatalog(config);
  const chains = new ChainAccess({ timeoutMs: config.CHAIN_RPC_TIMEOUT_MS });
  const wallets = new HubWallets(chains, new ServiceMetrics('quote-builder', { defaultMetrics: false }));
  const builder = new IntentBuilderService(catalog, chains, {} as HubIntentStates, wallets);
  const vaults = new VaultIntentsService(catalog, builder, {} as QuoteService, wallets, chains);
  const vault = catalog.chains.leverageVaults[0].vault;
  const user = '0x4fc1a3b9c2f4a1b8d1e5e6f7a8b9c0d1e2f3a4b5';
  const hubUsdc = '0x29219dd400f2Bf60E5a23d13Be72B486D4038894';
  const base: DepositIntentRequest = {
    vault,
    srcChainKey: '0x92.sonic',
    srcAddress: user,
    inputToken: hubUsdc,
    inputAmount: '100000000',
    minOutputAmount: '1000',
    deadline: '0',
  };
  const problems = async (body: DepositIntentRequest) => {
    const error = (await vaults.deposit(body).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    return (error.details as { field: string; rule: string }[]).map((d) => `${d.field}:${d.rule}`);
  };

  it('names every problem of the body at once, an unknown vault among them, before reading any chain', async () => {
    expect(await problems({ ...base, vault: hubUsdc, inputToken: '0x0000000000000000000000000000000000000001' })).toEqual([
      'vault:knownVault',
      'inputToken:knownToken',
    ]);
    expect(await problems({ ...base, srcChainKey: 'nowhere' })).toEqual(['srcChainKey:knownChain']);
  });

  it("builds a deposit from the hub to the vault's shares, received by the sender itself (its own hub wallet)", async () => {
    const built = await vaults.deposit(base);
    expect(built.intent).toMatchObject({
      creator: getAddress(user),
      inputToken: hubUsdc,
      outputToken: vault,
      minOutputAmount: '1000',
      dstAddress: user,
      srcChain: '146',
      dstChain: '146',
      allowPartialFill: false,
      deadline: '0',
    });
    // From the hub itself the user signs the intents contract's createIntent.
    expect(built.tx).toMatchObject({ to: '0x6382D6ccD780758C5e8A6123c33ee8F4472F96ef', from: getAddress(user) });
    expect(built.intent.inputAmount).toBe('100000000');
    expect(built.intent.data).toBe('0x');
  });

  it('charges the family’s configured fee (VAULT_PARTNER_FEE_*) when the request names none, and the request’s own over it', async () => {
    const feeAddress = '0x000000000000000000000000000000000000FEE1';
    const feeConfig = loadConfig(QuoteBuilderConfig, {
      ...testSigningKeysEnv,
      VAULT_PARTNER_FEE_ADDRESS: feeAddress,
      VAULT_PARTNER_FEE_PERCENTAGE: '50',
    });
    const feeCatalog = new ChainCatalog(feeConfig);
    const feeBuilder = new IntentBuilderService(feeCatalog, chains, {} as HubIntentStates, wallets);
    const charged = new VaultIntentsService(feeCatalog, feeBuilder, {} as QuoteService, wallets, chains);
    expect(feeCatalog.snapshot.vaultPartnerFee).toEqual({ address: feeAddress, percentage: 50 });
    // The swaps' own default stays unset.
    expect(feeCatalog.snapshot.partnerFee).toBeNull();

    const defaulted = await charged.deposit(base);
    expect(defaulted.intent.inputAmount).toBe('99500000');
    expect(defaulted.intent.data.toLowerCase()).toContain(feeAddress.slice(2).toLowerCase());
    const own = await charged.deposit({ ...base, partnerFee: { address: feeAddress, amount: '1000' } });
    expect(own.intent.inputAmount).toBe('99999000');
  });
});
