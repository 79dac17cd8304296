import { Body, Controller, Module, Post } from '@nestjs/common';
import { ConfigError, ServiceConfig, WithOperatorRoutes } from '@swap/config';
import { testServiceEnv } from '@swap/testing';
import { IsString } from 'class-validator';
import { connect } from 'node:net';
import type { ServiceDefinition } from './service-definition';
import { startServiceFromEnv } from './start-service-from-env';
import type { RunningService } from './start-service';

class Note {
  @IsString()
  text!: string;
}

@Controller('v1/notes')
class NotesController {
  @Post()
  create(@Body() body: Note) {
    return { text: body.text };
  }
}

@Module({ controllers: [NotesController] })
class NotesModule {}

const definition: ServiceDefinition<ServiceConfig> = {
  name: 'oracle-candles',
  title: 'slow clients',
  description: 'a service without dependencies, for the kit’s timeouts',
  configClass: ServiceConfig,
  module: NotesModule,
  uses: {},
};

/** Sends `head`, then `drip` every 50 ms, until the server closes; what it said then and after how long. */
function trickle(url: string, head: string, drip: string): Promise<{ status: number; code?: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const opened = Date.now();
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    socket.write(head);
    timer = setInterval(() => socket.writable && socket.write(drip), 50);
  });
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  return new Promise((resolve) => {
    const giveUp = setTimeout(() => socket.destroy(), 4_000);
    socket.once('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const code = /"code":"([A-Z_]+)"/.exec(received)?.[1];
      resolve({ status: Number(received.split(' ')[1] ?? 0), code, ms: Date.now() - opened });
    });
  });
}

describe('every service bounds slow clients', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startServiceFromEnv(
      definition,
      // The request timeout well above the headers': a 408 before 1.5 s is the headers' own (CI's busy cores can hold the loop half a second).
      testServiceEnv({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '300' }),
    );
  });

  afterAll(() => service.close());

  it('answers 408 to headers that take too long, on the public and the admin port', async () => {
    for (const url of [service.url, service.adminUrl]) {
      const answer = await trickle(url, 'GET /healthz HTTP/1.1\r\nHost: service\r\n', 'X-Slow: y\r\n');
      expect({ url, ...answer, ms: answer.ms < 1_500 }).toEqual({ url, status: 408, code: 'REQUEST_TIMEOUT', ms: true });
    }
  });

  it('answers 408 to a JSON body that takes too long', async () => {
    const head = 'POST /v1/notes HTTP/1.1\r\nHost: service\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"text":"';
    const answer = await trickle(service.url, head, 'a');
    expect(answer).toMatchObject({ status: 408, code: 'REQUEST_TIMEOUT' });
    expect(answer.ms).toBeGreaterThanOrEqual(1_800);
  });
});

describe('a service with operator routes', () => {
  class OpsConfig extends WithOperatorRoutes(ServiceConfig) {}
  const ops: ServiceDefinition<OpsConfig> = { ...definition, configClass: OpsConfig } as ServiceDefinition<OpsConfig>;

  it('refuses to start beyond loopback without OPS_TOKEN, naming it and HOST', async () => {
    const refused = await startServiceFromEnv(ops, testServiceEnv({ HOST: '0.0.0.0' })).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([
      expect.stringMatching(/^OPS_TOKEN is required: OPS_TOKEN must be set when HOST \(0\.0\.0\.0\) is not a loopback address/),
    ]);
  });

  it('starts on loopback without one', async () => {
    const service = await startServiceFromEnv(ops, testServiceEnv({ HOST: '127.0.0.1' }));
    await service.close();
  });
});
