import { AppError } from '@swap/contracts';
import { createServer, type Server, type Socket } from 'node:net';
import { ChainAccess } from '../chain-access';
import type { ChainInfo } from '../chain-directory';
import { loadChainDirectory } from '../profiles';
import { SPOKE_NETWORKS } from './index';

/*
 * Every network's adapter behind ChainAccess, its RPC unreachable or silent: a build is a
 * 503 naming the chain (never the RPC's address), within the configured timeout, never a
 * hang. Only 127.0.0.1 is dialled: a port just closed, and a server that accepts and
 * never answers.
 */

const USERS: Record<string, string> = {
  solana: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  sui: `0x${'7e'.repeat(32)}`,
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
  'injective-1': 'inj1dg6tm62uup53wn2kn97caeqfwt0sukx3qjk8rw',
  '0x1.icon': 'hx9d8a8376e7db9f00478feb9a46f44f0d051aab57',
};
const TIMEOUT_MS = 400;
// A network's first build loads its SDK: seconds on a busy CI worker (injective-1 took over 5 s).
jest.setTimeout(30_000);
const mainnet = loadChainDirectory('mainnet');
const networks = mainnet.chains.filter((c) => SPOKE_NETWORKS[c.type]);

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

async function buildOn(chain: ChainInfo, url: string): Promise<unknown> {
  const access = new ChainAccess({ timeoutMs: TIMEOUT_MS });
  const token = mainnet.tokensOf(chain.key)[0];
  return access
    .spoke({ ...chain, rpcUrls: [url] }, (a) =>
      a.buildDeposit({ user: USERS[chain.key], token: token.address, to: `0x${'11'.repeat(20)}`, amount: 1_000n, data: '0x1234' }),
    )
    .catch((error: unknown) => error);
}

describe('a network’s RPC down or silent', () => {
  const sockets = new Set<Socket>();
  const silent = createServer((socket) => sockets.add(socket));
  let closedUrl: string;
  let silentUrl: string;

  beforeAll(async () => {
    const closing = createServer();
    closedUrl = `http://127.0.0.1:${await listen(closing)}/api/v3`;
    await new Promise((resolve) => closing.close(resolve));
    silentUrl = `http://127.0.0.1:${await listen(silent)}/api/v3`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('lists every network the directory builds for', () => {
    expect(networks.map((c) => c.key).sort()).toEqual(['0x1.icon', 'injective-1', 'solana', 'stellar', 'sui']);
  });

  it.each(networks.map((c) => [c.key, c] as const))('%s: connection refused is a 503 naming the chain', async (key, chain) => {
    const error = await buildOn(chain, closedUrl);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).toBody()).toEqual({
      statusCode: 503,
      code: 'CHAIN_UNAVAILABLE',
      message: `${key} could not be read; retry later`,
    });
  });

  it.each(networks.map((c) => [c.key, c] as const))('%s: an RPC that never answers is a 503 within a few timeouts', async (key, chain) => {
    const started = Date.now();
    const error = await buildOn(chain, silentUrl);
    expect((error as AppError).toBody()).toMatchObject({ statusCode: 503, message: `${key} could not be read; retry later` });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 6);
  });
});
