/** Scopes of portal keys (spec: Authentication → Scopes). */
export const Scopes = ['swaps:read', 'swaps:write'] as const;
export type Scope = (typeof Scopes)[number];

export const PORTAL_KEY_SCOPES: readonly Scope[] = ['swaps:read', 'swaps:write'];

export const EnforcementModes = ['off', 'monitor', 'enforce'] as const;
export type EnforcementMode = (typeof EnforcementModes)[number];

/** Route families whose key checks an operator moves; sponsorships are always enforced. */
export const RouteFamilies = ['swaps', 'leverage-yield'] as const;
export type RouteFamily = (typeof RouteFamilies)[number] | 'sponsorships';

/** Spec: Key enforcement mode; anything else is refused. */
export const LEGAL_MODE_MOVES: Record<EnforcementMode, EnforcementMode[]> = {
  off: ['monitor'],
  monitor: ['enforce'],
  enforce: ['monitor'],
};

/** What a key list shows: never the secret or its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  /** `svc_` plus the first eight characters of the secret; shown followed by dots. */
  prefix: string;
  scopes: Scope[];
  createdAt: string;
}

export interface Organisation {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  createdAt: string;
}

/** `hash`: SHA-256 hex of the full key. */
export interface KeySetEntry {
  hash: string;
  keyId: string;
  orgId: string;
  scopes: string[];
  suspended: boolean;
}

/** Read from a service's own database (sponsorship-keys); the portal key set crosses the bus signed (key-set.ts). */
export interface KeySetSnapshot {
  version: number;
  keys: KeySetEntry[];
  modes: Partial<Record<RouteFamily, EnforcementMode>>;
}

/** Spec: Errors → Key-check rejections; the exact body messages. */
export const KeyCheckMessages = {
  missing: 'Missing x-api-key',
  invalid: 'Invalid API key',
  scope: (scope: string) => `API key is missing the ${scope} scope`,
  suspended: 'This organisation is suspended',
  unavailable: 'API key verification is temporarily unavailable',
} as const;

/** The OpenAPI security scheme of the `x-api-key` header. */
export const API_KEY_SCHEME = 'apiKey';
/** The partner portal's session cookie, and its OpenAPI security scheme (every service's document declares it; the portal's routes use it). */
export const PORTAL_SESSION_COOKIE = 'portal_session';
export const PORTAL_SESSION_SCHEME = 'portalSession';
