import type { Scope } from './api-key';

/**
 * The 13 POST routes of the swaps API and the scope each requires, by what the call
 * causes (spec: Authentication → Scopes): `swaps:read` for quotes, estimates, checks and
 * lookups and for `approve` (a builder of an unsigned transaction); `swaps:write` for
 * creating, submitting and cancelling intents and limit orders, and `submit-tx`. A route
 * that is not built yet is listed all the same, so its scope is decided here, once.
 */
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
