import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';
import { InvitationMail } from './invitation-mail';

const invitation = {
  email: 'dana@example.com',
  orgName: 'Acme',
  role: 'member',
  link: 'https://p.example/portal/invitations/SECRET',
  expiresAt: '2030-01-01T00:00:00.000Z',
};

function mailer(env: Partial<PartnerPortalApiConfig>): InvitationMail {
  return new InvitationMail(Object.assign(new PartnerPortalApiConfig(), { SMTP_TIMEOUT_MS: 300, SMTP_RETRY_MS: 10 }, env));
}

/** A TCP server on loopback that accepts and never answers (an SMTP server hung before its greeting). */
async function silentServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => sockets.length,
    close: () => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

describe('InvitationMail', () => {
  it('without SMTP_URL sends nothing and says so (undefined: the link is to be copied)', async () => {
    expect(await mailer({}).send(invitation)).toBeUndefined();
  });

  it('a server that never greets: each attempt ends at SMTP_TIMEOUT_MS, three in all, then a failure naming the timeout', async () => {
    const silent = await silentServer();
    const started = Date.now();
    try {
      const outcome = await mailer({ SMTP_URL: silent.url }).send(invitation);

      expect(outcome).toEqual({ sent: false, error: expect.stringMatching(/^ETIMEDOUT: /) });
      expect(silent.connections()).toBe(3);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await silent.close();
    }
  });

  it('nothing listening: retried as transient, then a failure that does not carry the link', async () => {
    const silent = await silentServer();
    const url = silent.url;
    await silent.close();

    const outcome = await mailer({ SMTP_URL: url }).send(invitation);

    expect(outcome).toEqual({ sent: false, error: expect.stringMatching(/^(ECONNECTION|ESOCKET): /) });
    expect(JSON.stringify(outcome)).not.toContain('SECRET');
  });
});
