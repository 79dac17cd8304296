import { request } from 'undici';

/** A relay packet as the public relay API answers it (protocol-facts.md). */
export interface RelayPacket {
  src_chain_id: string;
  src_tx_hash: string;
  src_address: string;
  status: 'pending' | 'validating' | 'executing' | 'executed';
  dst_chain_id: string;
  conn_sn: string;
  dst_address: string;
  dst_tx_hash: string;
  signatures: string[];
  payload: string;
}

export class RelayApiError extends Error {
  /** `unavailable`: unreachable, slow or 5xx (try again); `refused`: it answered `success: false`. */
  constructor(
    message: string,
    readonly kind: 'unavailable' | 'refused' = 'unavailable',
  ) {
    super(message);
    this.name = 'RelayApiError';
  }
}

/** The public relay API (one endpoint, `{ action, params }`); every failure is a RelayApiError: the caller retries. */
export class RelayApiClient {
  constructor(
    private readonly url: string,
    private readonly options: { timeoutMs: number },
  ) {}

  async submit(
    relayChainId: string,
    txHash: string,
    data?: { address: string; payload: string },
  ): Promise<{ success: true; message?: string }> {
    const body = await this.call('submit', { chain_id: relayChainId, tx_hash: txHash, ...(data ? { data } : {}) }, true);
    return { success: true, ...(typeof body.message === 'string' ? { message: body.message } : {}) };
  }

  async transactionPackets(relayChainId: string, txHash: string): Promise<RelayPacket[]> {
    const data = await this.call('get_transaction_packets', { chain_id: relayChainId, tx_hash: txHash });
    return Array.isArray(data) ? (data as RelayPacket[]) : [];
  }

  private async call(action: string, params: Record<string, unknown>): Promise<unknown>;
  private async call(action: string, params: Record<string, unknown>, whole: true): Promise<{ message?: unknown; data?: unknown }>;
  private async call(action: string, params: Record<string, unknown>, whole = false): Promise<unknown> {
    // undici's request (Node's fetch is built on it, at several times the CPU per call): settlement calls this once per swap.
    let text: string;
    try {
      const res = await request(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action, params }),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) throw new RelayApiError(`relay API answered ${res.statusCode}`);
    } catch (error) {
      if (error instanceof RelayApiError) throw error;
      throw new RelayApiError(`relay API unreachable: ${(error as Error).message}`);
    }
    let body: { success?: boolean; message?: string; data?: unknown } | undefined;
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = undefined;
    }
    if (!body) throw new RelayApiError(`relay API answered ${action} with something other than JSON`);
    if (!body.success) throw new RelayApiError(`relay API refused ${action}: ${body.message ?? 'no reason given'}`, 'refused');
    return whole ? body : body.data;
  }
}
