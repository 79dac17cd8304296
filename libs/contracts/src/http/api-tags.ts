/** In the order a swap meets them, then the other surfaces; the gateway orders and describes them. */
export const ApiTag = {
  quote: '1. Tokens and quote',
  build: '2. Build the transactions',
  submit: '3. Submit the sent transaction',
  track: '4. Track the swap',
  cancel: '5. Cancel',
  candles: 'USD price candles',
  explorer: 'Data API: intents, orderbook, volume, partners',
  config: 'Data API: configuration',
  leverageYield: 'Leveraged yield',
  solvers: 'Solver API',
  sponsorships: 'Sponsorships',
  portal: 'Partner portal',
} as const;
export type ApiTag = (typeof ApiTag)[keyof typeof ApiTag];

export const API_TAGS: readonly { name: ApiTag; description: string }[] = [
  { name: ApiTag.quote, description: 'Which tokens each network has, what an amount buys (quote), and the partner fee on it.' },
  {
    name: ApiTag.build,
    description:
      'A deadline, the allowance check and the unsigned approve transaction, then the unsigned swap transaction `{ tx, intent, relayData }`. The user signs and broadcasts `tx` in their own wallet: the platform never holds a key.',
  },
  {
    name: ApiTag.submit,
    description:
      'Hand over the broadcast transaction (idempotent on txHash and srcChainKey) so the platform relays it to the hub and to solvers.',
  },
  {
    name: ApiTag.track,
    description:
      'Poll the status about every 3 seconds until `solved` or `failed`; the lookups behind it (solver status, relay packet, intent hash).',
  },
  { name: ApiTag.cancel, description: 'The unsigned cancel transaction of an intent that was not filled; the input returns to the user.' },
  { name: ApiTag.candles, description: 'USD OHLC candles per symbol; public, no key.' },
  {
    name: ApiTag.explorer,
    description:
      'Reads of the hub index: an intent by hub transaction or hash with its events, a user’s intents, the open orderbook, solver volume (one record per fill), partner-fee receivers. Public, no key.',
  },
  {
    name: ApiTag.config,
    description:
      'The deployment’s networks, swap tokens, hub assets and relay chain ids, in the public client’s config shapes. Public, no key.',
  },
  {
    name: ApiTag.leverageYield,
    description:
      'Leveraged-yield vaults on the hub (ERC-4626; a vault’s address is its share token): the registry and reads of each vault from the chain (position, rates, previews, balances). Public, no key.',
  },
  { name: ApiTag.solvers, description: 'For solvers: the protocol’s solver API (snake_case, errors `{ detail: { code, message } }`).' },
  { name: ApiTag.sponsorships, description: 'Sponsorship requests; a sponsoring key (spk_…) from the operator is required.' },
  { name: ApiTag.portal, description: 'The partner portal’s API (cookie sessions): accounts, organisations, members and API keys.' },
];
