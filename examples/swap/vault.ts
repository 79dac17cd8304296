/**
 * A leveraged-yield vault through the public HTTP API, as an integrator writes it: deposit a
 * spoke token, wait for the shares in the hub wallet, read the position, withdraw the shares
 * to another network.
 *
 *   deposit   POST /v1/leverage-yield/quote/deposit, /allowance/check, /approve, /intents/deposit, /submit-tx (operation deposit)
 *   read      GET  /v1/leverage-yield/share-balance, /position, /apr/effective
 *   withdraw  POST /v1/leverage-yield/quote/withdraw, /intents/withdraw (a message to the hub wallet), /submit-tx (operation withdraw)
 *
 * Against `npm start` it needs no settings (the devnet's demo wallet, the RPCs from its profile).
 *
 *   API_URL, PRIVATE_KEY, API_KEY, RPC_URLS, CHAIN_PROFILE   as for example:swap
 *   VAULT          the vault's name (default lsodaWETH)
 *   FROM, TO       the deposit's network and the withdrawal's (default 0xa4b1.arbitrum → 0x2105.base)
 *   TOKEN_IN, TOKEN_OUT   symbols (default USDC → USDC); AMOUNT in token units (default 100)
 *   SLIPPAGE_BPS   (default 100), POLL_MS (default 1000), TIMEOUT_MS (default 600000)
 */
import { createWalletClient, formatUnits, http, parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSwapClient, isEvmTx, type EvmTx, type NetworkTx, type SubmissionStatus } from '@swap/client';
import { balanceOf, commonOptionsFromEnv, connect, findToken, type SwapOptions } from './swap';

export interface VaultOptions extends SwapOptions {
  /** The vault's name. */
  vault: string;
}

export function vaultOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): VaultOptions {
  return { ...commonOptionsFromEnv(env, '100'), vault: env.VAULT ?? 'lsodaWETH', pollMs: Number(env.POLL_MS ?? 1000) };
}

/** Deposit, read, withdraw; `log` receives every line printed. Resolves with the withdrawal's final status. */
export async function runVault(options: VaultOptions, log: (line: string) => void = console.log): Promise<SubmissionStatus> {
  const api = createSwapClient({ baseUrl: options.apiUrl, apiKey: options.apiKey });
  const ly = api.leverageYield;
  const account = privateKeyToAccount(options.privateKey);
  const src = await connect(options.from, options.rpcUrls);
  const dst = await connect(options.to, options.rpcUrls);
  const wallet = createWalletClient({ account, chain: src.chain, transport: http(src.url) });
  const send = async (tx: EvmTx | NetworkTx): Promise<Hex> => {
    if (!isEvmTx(tx)) throw new Error(`${options.from} answered a ${tx.encoding} transaction; this example signs EVM ones`);
    const hash = await wallet.sendTransaction({ to: tx.to as Address, data: tx.data as Hex, value: BigInt(tx.value) });
    const receipt = await src.client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${hash} reverted on ${options.from}`);
    return hash;
  };
  const settle = async (txHash: Hex, operation: 'deposit' | 'withdraw', intent: unknown, relayData: string): Promise<SubmissionStatus> => {
    const submitted = await ly.submit({
      txHash,
      srcChainKey: options.from,
      walletAddress: account.address,
      intent: intent as never,
      relayData,
      operation,
    });
    log(`   submit     ${submitted.data.status}; polling its status`);
    const until = Date.now() + options.timeoutMs;
    let last = '';
    for (;;) {
      const status = await ly.status(txHash, options.from);
      if (status.status !== last) log(`   ${status.status.padEnd(17)} ${status.updatedAt}`);
      last = status.status;
      if (status.terminal) return status;
      if (Date.now() > until) throw new Error(`Not settled within ${Math.round(options.timeoutMs / 1000)} s (the status is kept)`);
      await new Promise((r) => setTimeout(r, options.pollMs));
    }
  };

  const vault = await ly.vault(options.vault);
  // The vault's asset is a hub token: its symbol and decimals from the token lists.
  const asset = Object.values(await api.tokens())
    .flat()
    .find((t) => t.address.toLowerCase() === vault.asset.toLowerCase());
  const inAsset = (amount: string) => `${formatUnits(BigInt(amount), asset?.decimals ?? 18)} ${asset?.symbol ?? 'of the asset'}`;
  const tokenIn = await findToken(api, options.from, options.tokenIn);
  const tokenOut = await findToken(api, options.to, options.tokenOut);
  const amount = parseUnits(options.amount, tokenIn.decimals);
  const less = (x: string) => ((BigInt(x) * BigInt(10_000 - options.slippageBps)) / 10_000n).toString();
  log(`wallet ${account.address}, vault ${vault.name} (${vault.vault})`);

  // Deposit: a quote in shares, the input's allowance, the unsigned deposit; the shares go to the hub wallet.
  const quote = await ly.quoteDeposit({
    vault: vault.vault,
    tokenSrc: tokenIn.address,
    tokenSrcChainKey: options.from,
    amount: amount.toString(),
    quoteType: 'exact_input',
  });
  log(`1. quote     ${options.amount} ${tokenIn.symbol} on ${options.from} → ${formatUnits(BigInt(quote.quotedAmount), 18)} ${vault.name}`);
  const body = {
    vault: vault.vault,
    srcChainKey: options.from,
    srcAddress: account.address,
    inputToken: tokenIn.address,
    inputAmount: amount.toString(),
    minOutputAmount: less(quote.quotedAmount),
  };
  if (!(await ly.allowance(body)).valid) {
    const approval = await ly.approve(body);
    if (approval.tx) log(`   approve    ${await send(approval.tx)}`);
  }
  const deposit = await ly.deposit(body);
  const hubWallet = deposit.relayData.address as Address;
  const sharesBefore = BigInt(await ly.shareBalance(vault.vault, hubWallet));
  const depositTx = await send(deposit.tx);
  log(`2. deposit   ${depositTx} (the shares go to the hub wallet ${hubWallet})`);
  const deposited = await settle(depositTx, 'deposit', deposit.intent, deposit.relayData.payload);
  if (deposited.status !== 'solved') throw new Error(`The deposit failed: ${deposited.userMessage ?? 'no message'}`);

  // Read: the shares held and the vault's position.
  const shares = BigInt(await ly.shareBalance(vault.vault, hubWallet)) - sharesBefore;
  const position = await ly.position(vault.vault);
  const apr = await ly.effectiveApr(vault.vault);
  log(
    `3. shares    ${formatUnits(shares, 18)} ${vault.name} in ${hubWallet}, worth ${inAsset(await ly.previewRedeem(vault.vault, shares.toString()))}`,
  );
  log(
    `   position  collateral ${inAsset(position.collateral)}, debt ${inAsset(position.debt)}, ltv ${Number(position.ltv) / 100}%, health factor ${Number(formatUnits(BigInt(position.healthFactor), 18)).toFixed(3)}; effective net APR ${Number(formatUnits(BigInt(apr.effectiveNetAprRay), 25)).toFixed(2)}% (staking yield included)`,
  );

  // Withdraw: the shares to a token on another network; the user signs a message to the hub wallet on the deposit's network.
  const out = await ly.quoteWithdraw({
    vault: vault.vault,
    srcChainKey: options.from,
    tokenDst: tokenOut.address,
    tokenDstChainKey: options.to,
    amount: shares.toString(),
    quoteType: 'exact_input',
  });
  log(
    `4. quote     ${formatUnits(shares, 18)} ${vault.name} → ${formatUnits(BigInt(out.quotedAmount), tokenOut.decimals)} ${tokenOut.symbol} on ${options.to}`,
  );
  const received = () => balanceOf(dst.client, tokenOut, account.address);
  const before = await received();
  const withdrawal = await ly.withdraw({
    vault: vault.vault,
    srcChainKey: options.from,
    srcAddress: account.address,
    dstChainKey: options.to,
    outputToken: tokenOut.address,
    inputAmount: shares.toString(),
    minOutputAmount: less(out.quotedAmount),
  });
  const withdrawTx = await send(withdrawal.tx);
  log(`5. withdraw  ${withdrawTx} (a message to the hub wallet, which spends its shares)`);
  const withdrawn = await settle(withdrawTx, 'withdraw', withdrawal.intent, withdrawal.relayData.payload);
  if (withdrawn.status !== 'solved') {
    log(`failed: ${withdrawn.userMessage ?? 'no message'}`);
    return withdrawn;
  }
  const after = await received();
  log(
    `solved: ${formatUnits(after, tokenOut.decimals)} ${tokenOut.symbol} on ${options.to} (+${formatUnits(after - before, tokenOut.decimals)}), ${await ly.shareBalance(vault.vault, hubWallet)} shares left in the hub wallet`,
  );
  return withdrawn;
}

if (require.main === module) {
  runVault(vaultOptionsFromEnv())
    .then((status) => process.exit(status.status === 'solved' ? 0 : 2))
    .catch((error: Error) => {
      console.error(`example:vault failed: ${error.message}`);
      process.exit(1);
    });
}
