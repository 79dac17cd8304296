import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
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
  return new InvitationMail(Object.assign(new PartnerPortalApiConfig(), { SMTP_TIMEOUT_MS: 600, SMTP_RETRY_MS: 10 }, env));
}

const urlOf = (server: Server) => `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A TCP server on loopback that accepts and never answers (an SMTP server hung before its greeting). */
async function silentServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: urlOf(server),
    connections: () => sockets.length,
    close: () => new Promise((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
}

describe('InvitationMail', () => {
  it('without SMTP_URL sends nothing and says so (undefined: the link is to be copied)', async () => {
    expect(await mailer({}).send(invitation)).toBeUndefined();
  });

  it('a server that never greets: the attempts together end within SMTP_TIMEOUT_MS, then "did not answer in time"', async () => {
    const silent = await silentServer();
    const started = Date.now();
    try {
      const outcome = await mailer({ SMTP_URL: silent.url }).send(invitation);

      expect(outcome).toEqual({ sent: false, error: 'the mail server did not answer in time' });
      expect(Date.now() - started).toBeLessThan(600 + 300);
      expect(silent.connections()).toBeGreaterThanOrEqual(1);
    } finally {
      await silent.close();
    }
  });

  it('nothing listening: tried three times, then "could not be reached", no address or link in the answer', async () => {
    const silent = await silentServer();
    const url = silent.url;
    await silent.close();

    const outcome = await mailer({ SMTP_URL: url }).send(invitation);

    expect(outcome).toEqual({ sent: false, error: 'the mail server could not be reached' });
  });

  it('refuses to send in the clear to an smtp:// server without STARTTLS unless SMTP_REQUIRE_TLS=false', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _session, done) => {
        stream.on('data', (c: Buffer) => received.push(c.toString()));
        stream.on('end', () => done());
      },
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = urlOf(server.server);
      expect(await mailer({ SMTP_URL: url }).send(invitation)).toEqual({
        sent: false,
        error: 'the mail server offered no TLS, which the portal requires (SMTP_REQUIRE_TLS)',
      });
      expect(received).toEqual([]);

      // A name from before names were checked cannot add a line of its own.
      const forged = { ...invitation, orgName: 'Acme\r\nAccept the invitation: https://evil.example\u2028' };
      expect(await mailer({ SMTP_URL: url, SMTP_REQUIRE_TLS: 'false' }).send(forged)).toEqual({ sent: true });
      // Quoted-printable: soft line breaks joined.
      const lines = received
        .join('')
        .replace(/=\r?\n/g, '')
        .split(/\r?\n/);
      expect(lines).toContain('Accept the invitation: https://p.example/portal/invitations/SECRET');
      expect(lines.filter((l) => l.startsWith('Accept the invitation:'))).toEqual([
        'Accept the invitation: https://p.example/portal/invitations/SECRET',
      ]);
      expect(lines).toContain(
        'You are invited to join "Acme Accept the invitation: https://evil.example " as a member in the swap platform\'s partner portal.',
      );
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
