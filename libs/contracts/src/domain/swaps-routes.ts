import type { EnforcementMode, Scope } from './api-key';

/** Scopes by what the call causes (spec: Authentication → Scopes); routes not built yet are listed so it is decided once. */
export const SWAPS_POST_ROUTES = {
  quote: { path: '/v1/swaps/quote', scope: 'swaps:read' },
  allowanceCheck: { path: '/v1/swaps/allowance/check', scope: 'swaps:read' },
  approve: { path: '/v1/swaps/approve', scope: 'swaps:read' },
  gasEstimate: { path: '/v1/swaps/gas/estimate', scope: 'swaps:read' },
  intentStatus: { path: '/v1/swaps/intents/status', scope: 'swaps:read' },
  intentHash: { path: '/v1/swaps/intents/hash', scope: 'swaps:read' },
  intentPacket: { path: '/v1/swaps/intents/packet', scope: 'swaps:read' },
  intentExtraData: { path: '/v1/swaps/intents/extra-data', scope: 'swaps:read' },
  intents: { path: '/v1/swaps/intents', scope: 'swaps:write' },
  intentSubmit: { path: '/v1/swaps/intents/submit', scope: 'swaps:write' },
  intentCancel: { path: '/v1/swaps/intents/cancel', scope: 'swaps:write' },
  limitOrders: { path: '/v1/swaps/limit-orders', scope: 'swaps:write' },
  submitTx: { path: '/v1/swaps/submit-tx', scope: 'swaps:write' },
} as const satisfies Record<string, { path: string; scope: Scope }>;

/** The leveraged-yield family's POST routes with the swaps scopes (public-api-families.md §1.2), built or not. */
export const LEVERAGE_YIELD_POST_ROUTES = {
  quoteDeposit: { path: '/v1/leverage-yield/quote/deposit', scope: 'swaps:read' },
  quoteWithdraw: { path: '/v1/leverage-yield/quote/withdraw', scope: 'swaps:read' },
  allowanceCheck: { path: '/v1/leverage-yield/allowance/check', scope: 'swaps:read' },
  approve: { path: '/v1/leverage-yield/approve', scope: 'swaps:read' },
  intentDeposit: { path: '/v1/leverage-yield/intents/deposit', scope: 'swaps:write' },
  intentWithdraw: { path: '/v1/leverage-yield/intents/withdraw', scope: 'swaps:write' },
  intentSubmit: { path: '/v1/leverage-yield/intents/submit', scope: 'swaps:write' },
  intentStatus: { path: '/v1/leverage-yield/intents/status', scope: 'swaps:read' },
  intentCancel: { path: '/v1/leverage-yield/intents/cancel', scope: 'swaps:write' },
  intentHash: { path: '/v1/leverage-yield/intents/hash', scope: 'swaps:read' },
  intentPacket: { path: '/v1/leverage-yield/intents/packet', scope: 'swaps:read' },
  intentExtraData: { path: '/v1/leverage-yield/intents/extra-data', scope: 'swaps:read' },
  gasEstimate: { path: '/v1/leverage-yield/gas/estimate', scope: 'swaps:read' },
  submitTx: { path: '/v1/leverage-yield/submit-tx', scope: 'swaps:write' },
} as const satisfies Record<string, { path: string; scope: Scope }>;

/** The routes whose key check an operator may move on its own (spec: modes per route), as `METHOD /path`. */
export const KEYED_ROUTES: Readonly<Record<string, { family: 'swaps' | 'leverage-yield'; scope: Scope }>> = Object.fromEntries([
  ...Object.values(SWAPS_POST_ROUTES).map((r) => [`POST ${r.path}`, { family: 'swaps', scope: r.scope }]),
  ...Object.values(LEVERAGE_YIELD_POST_ROUTES).map((r) => [`POST ${r.path}`, { family: 'leverage-yield', scope: r.scope }]),
]);

/** A keyed route's mode: its own when set, else its family's. */
export interface RouteModeSetting {
  route: string;
  family: string;
  mode: EnforcementMode;
  familyMode: EnforcementMode;
  /** Set when the route has its own mode. */
  override?: { mode: EnforcementMode; updatedAt: string; updatedBy: string };
}
