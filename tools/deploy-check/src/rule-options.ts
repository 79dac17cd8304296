/** What a deployment's rules expect of it (platform-rules.ts applies them). */
export interface RuleOptions {
  expectedImage?: RegExp;
  migrations: 'helm-hook' | 'per-release' | 'renamed-by-overlays';
  /** false: the chart's nats.auth.enabled=false. */
  busCredentials?: boolean;
}
