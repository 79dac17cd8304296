import { readFileSync } from 'node:fs';
import builtIn from './markets.json';

export interface MarketsConfig {
  symbols: Record<string, { pythFeedId?: string; simulatedStart: string }>;
  aliases: Record<string, string>;
}

/** The configured price symbols: the built-in file, or `MARKETS_FILE` when set. */
export function loadMarketsConfig(path?: string): MarketsConfig {
  const config = (path ? JSON.parse(readFileSync(path, 'utf8')) : builtIn) as MarketsConfig;
  for (const [alias, target] of Object.entries(config.aliases)) {
    if (!config.symbols[target]) throw new Error(`markets config: alias ${alias} points at unconfigured symbol ${target}`);
  }
  return config;
}
