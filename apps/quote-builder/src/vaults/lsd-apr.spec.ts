import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { QuoteBuilderConfig } from '../quote-builder.config';
import { LsdAprSource, percentToRay } from './lsd-apr';

describe('the staking yield of a leveraged-yield vault', () => {
  const source = { poolId: 'pool-1', fallbackAprPct: 3.1, label: 'weETH staking' };
  let server: Server;
  let url: string;
  let answer: { status: number; body: unknown };
  let asked: string[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(req.url!);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => (asked = []));

  const sourceWith = (LSD_APR_URL?: string) => new LsdAprSource({ LSD_APR_URL } as QuoteBuilderConfig);

  it('converts percent to RAY (1e27 = 100%)', () => {
    expect(percentToRay(100)).toBe(10n ** 27n);
    expect(percentToRay(3.1)).toBe(31n * 10n ** 24n);
    expect(percentToRay(-0.5)).toBe(-5n * 10n ** 24n);
  });

  it("answers the yields API's latest apy, asks it once in ten minutes, and names nothing stale", async () => {
    answer = { status: 200, body: { status: 'success', data: [{ apy: 2.5 }, { apy: 2.75 }] } };
    const lsd = sourceWith(url);
    expect(await lsd.aprOf(source)).toEqual({ aprRay: (275n * 10n ** 23n).toString(), label: 'weETH staking', stale: false });
    await lsd.aprOf(source);
    expect(asked).toEqual(['/chart/pool-1']);
  });

  it('answers the fallback, stale, when the source fails, answers nonsense or is not configured, and does not ask again within a minute', async () => {
    const fallback = { aprRay: (31n * 10n ** 24n).toString(), label: 'weETH staking (fallback)', stale: true };
    answer = { status: 500, body: {} };
    const failing = sourceWith(url);
    expect(await failing.aprOf(source)).toEqual(fallback);
    expect(await failing.aprOf(source)).toEqual(fallback);
    expect(asked).toHaveLength(1);
    answer = { status: 200, body: { data: [{ apy: 'high' }] } };
    expect(await sourceWith(url).aprOf(source)).toEqual(fallback);
    expect(await sourceWith(undefined).aprOf(source)).toEqual(fallback);
  });

  it('answers zero, not stale, for a vault without a staking yield', async () => {
    expect(await sourceWith(url).aprOf(undefined)).toEqual({ aprRay: '0', label: '', stale: false });
  });
});
