import type { Platform } from '../../../tools/embedded/src/platform';

/** An operator's move of the swaps family's enforcement mode on `npm start`'s platform (no operator token there): the answer's status. */
export function setSwapsMode(platform: Platform, mode: string): Promise<number> {
  return fetch(`${platform.services.find((s) => s.name === 'key-registry')!.url}/ops/enforcement-modes/swaps`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mode }),
  }).then((r) => r.status);
}
