import type { SettlementChains } from '../settlement/settlement-chains';

export type IndexRows = (text: string, values: string[]) => Promise<{ tx_hash: string }[]>;

/** The user's transaction of an intent the hub created in `hubTx`: that transaction, or the followed spoke's deposit whose message it received (adoption, the swap lookup). */
export async function sourceTransaction(
  chains: SettlementChains,
  srcRelayChainId: string,
  hubTx: string,
  rows: IndexRows,
): Promise<{ chainKey: string; txHash: string } | undefined> {
  const hub = chains.hub;
  if (srcRelayChainId === hub.relayChainId) return { chainKey: hub.key, txHash: hubTx };
  const src = chains.byRelayId(srcRelayChainId);
  if (!src || !chains.followed(src.key)) return undefined;
  const [deposit] = await rows(
    `SELECT s.tx_hash FROM relay_tracker.chain_events r
       JOIN relay_tracker.chain_events s ON s.chain_key = $3 AND s.kind = 'message_sent' AND s.conn_sn = r.conn_sn AND s.peer_chain = $4
       WHERE r.chain_key = $1 AND r.tx_hash = $2 AND r.kind = 'message_received' AND r.peer_chain = $5
       LIMIT 1`,
    [hub.key, hubTx, src.key, hub.relayChainId, src.relayChainId],
  );
  return deposit ? { chainKey: src.key, txHash: deposit.tx_hash } : undefined;
}
