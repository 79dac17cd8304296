import type { SettlementChains } from '../settlement/settlement-chains';

export interface SpokeSourceQuery {
  chainKey: string;
  text: string;
  values: string[];
}

/** The spoke deposit whose message the hub received in the intent's hub transaction (adoption, the swap lookup); undefined off a followed spoke. */
export function spokeSourceQuery(chains: SettlementChains, srcRelayChainId: string, hubTx: string): SpokeSourceQuery | undefined {
  const src = chains.byRelayId(srcRelayChainId);
  if (!src || src.hub || !chains.followed(src.key)) return undefined;
  return {
    chainKey: src.key,
    text: `SELECT s.tx_hash FROM relay_tracker.chain_events r
       JOIN relay_tracker.chain_events s ON s.chain_key = $3 AND s.kind = 'message_sent' AND s.conn_sn = r.conn_sn AND s.peer_chain = $4
       WHERE r.chain_key = $1 AND r.tx_hash = $2 AND r.kind = 'message_received' AND r.peer_chain = $5
       LIMIT 1`,
    values: [chains.hub.key, hubTx, src.key, chains.hub.relayChainId, src.relayChainId],
  };
}
