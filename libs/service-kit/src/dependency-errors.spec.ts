import { ErrorCode } from '@swap/contracts';
import Redis from 'ioredis';
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { unavailableDependency } from './dependency-errors';
import { describeError } from './errors-filter';

/** Real errors of the real clients, each against a loopback port that refuses, hangs up or never answers. */
describe('errors that say a dependency is unavailable', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  const listen = async (onConnection: (socket: Socket) => void): Promise<number> => {
    const server = createServer((socket) => {
      sockets.push(socket);
      onConnection(socket);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  };
  const closedPort = async () => {
    const port = await listen(() => undefined);
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    return port;
  };
  const pgError = async (port: number) => {
    const pool = new pg.Pool({ connectionString: `postgresql://postgres@127.0.0.1:${port}/x`, connectionTimeoutMillis: 300 });
    pool.on('error', () => undefined);
    try {
      return await pool.query('SELECT 1').then(
        () => undefined,
        (error: unknown) => error,
      );
    } finally {
      await pool.end().catch(() => undefined);
    }
  };

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('PostgreSQL refusing, hanging up and never answering', async () => {
    expect(unavailableDependency(await pgError(await closedPort()))).toBe('a dependency');
    expect(unavailableDependency(await pgError(await listen((socket) => socket.destroy())))).toBe('the database');
    expect(unavailableDependency(await pgError(await listen(() => undefined)))).toBe('the database');
  });

  it('Redis down under a client without an offline queue, as the services run it', async () => {
    // Asked while it (re)connects: what a service's command meets while Redis is down.
    const redis = new Redis({
      host: '127.0.0.1',
      port: await closedPort(),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    const error = await redis.get('k').then(
      () => undefined,
      (e: unknown) => e,
    );
    redis.disconnect();
    expect(unavailableDependency(error)).toBe('the cache');
  });

  it('Prisma on the pg adapter: the database not reachable (P1001) and the server gone (a driver-adapter cause)', () => {
    // The shapes Prisma 7 throws (recorded against a refused port): a code, and the adapter's error under meta.
    expect(unavailableDependency(Object.assign(new Error('Can’t reach database server'), { code: 'P1001' }))).toBe('the database');
    const closed = Object.assign(new Error('Invalid invocation'), {
      code: 'P2010',
      meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } } },
    });
    expect(unavailableDependency(closed)).toBe('the database');
  });

  it('leaves every other failure alone: a constraint broken, a plain bug', () => {
    expect(
      unavailableDependency(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' })),
    ).toBeUndefined();
    expect(unavailableDependency(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeUndefined();
    // A protocol violation (our own SQL's parameters) and a commit whose outcome is unknown are not "retry".
    expect(unavailableDependency(Object.assign(new Error('bind message supplies 1 parameters'), { code: '08P01' }))).toBeUndefined();
    expect(unavailableDependency(Object.assign(new Error('transaction resolution unknown'), { code: '08007' }))).toBeUndefined();
    expect(unavailableDependency(Object.assign(new Error('server shutting down'), { code: '57P01' }))).toBe('the database');
    // A client that hung up on us is not a dependency down.
    expect(unavailableDependency(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(unavailableDependency(undefined)).toBeUndefined();
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE naming it, where it answered 500 before', async () => {
    const logger = pino({ level: 'silent' });
    const error = await pgError(await listen((socket) => socket.destroy()));
    expect(describeError(error, logger)).toEqual({
      statusCode: 503,
      code: ErrorCode.DependencyUnavailable,
      message: 'The database is unavailable right now; retry in a moment',
    });
    expect(describeError(new Error('a bug'), logger)).toMatchObject({ statusCode: 500, code: ErrorCode.Internal });
  });
});
