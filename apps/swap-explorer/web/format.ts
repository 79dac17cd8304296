import type { HubAsset, Intent, Status, Submission } from './api';

export const STATUS_LABELS: Record<Status, string> = {
  pending: 'Waiting for the source transaction',
  relaying: 'Relaying the deposit to the hub',
  relayed: 'Intent created on the hub',
  posting_execution: 'Handing the intent to the solvers',
  posted_execution: 'Waiting for a solver to fill it',
  solved: 'Solved',
  failed: 'Failed',
};

/** A duration for a person: 350 ms, 4.2 s, 3 min 5 s, 2 h 10 min. */
export function duration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const s = Math.round(ms / 1_000);
  if (s < 3_600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3_600)} h ${Math.floor((s % 3_600) / 60)} min`;
}

/** A time of day in UTC with the date: 2026-11-25 20:46:30 UTC. */
export function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A message's ISO 8601 times (`2026-12-02T14:29:16.000Z`) written as the page writes times. */
export function withTimesWritten(message: string): string {
  return message.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, (iso) => when(iso));
}

/** An amount in a hub asset's smallest unit, written with its decimals and symbol (raw units when the asset is unknown). */
export function amount(units: string, asset: HubAsset | undefined): string {
  if (!asset) return `${units} (units of an unknown asset)`;
  const digits = units.padStart(asset.decimal + 1, '0');
  const whole = digits.slice(0, digits.length - asset.decimal);
  const fraction = digits.slice(digits.length - asset.decimal).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} ${asset.symbol}`;
}

/** What the user can do about a failed swap, from how it failed and what the hub holds. */
export function advice(submission: Submission, intentOpen: boolean | undefined): string | undefined {
  if (submission.status !== 'failed') return undefined;
  if (submission.intentCancelled)
    return `The intent was cancelled on the hub and its input refunded to the sender (on ${submission.srcChainKey}). Nothing more is needed; the swap can be tried again.`;
  if (intentOpen)
    return `The input is held in the intent on the hub. To recover it, cancel the intent: build the cancel transaction with POST /v1/swaps/intents/cancel (the request body is below), then sign and send it from the wallet that made the swap on ${submission.srcChainKey}. The input returns to that wallet; this page shows the cancel when the hub records it.`;
  if (submission.failedAtStep === 'pending')
    return 'Nothing left the wallet for this swap. Check the transaction in the wallet, then try the swap again.';
  return 'If funds seem to be missing, contact support with the link of this page: it names every transaction of the swap.';
}

/** The partner fee an intent's data carries (0x01, the fee, its receiver: the record the platform writes), if any. */
export function partnerFee(data: string): { amount: string; receiver: string } | undefined {
  if (!/^0x01[0-9a-fA-F]{128}$/.test(data)) return undefined;
  return { amount: BigInt(`0x${data.slice(4, 68)}`).toString(), receiver: `0x${data.slice(-40)}` };
}

/** The body of `POST /v1/swaps/intents/cancel` for an intent (relay chain ids as the build gave them: decimal strings). */
export function cancelBody(srcChainKey: string, intent: Intent['intent']): string {
  return JSON.stringify(
    { srcChainKey, intent: { ...intent, srcChain: String(intent.srcChain), dstChain: String(intent.dstChain) } },
    null,
    2,
  );
}
