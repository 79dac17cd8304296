import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { portalHarnessPerSuite, sha256 } from '../testing/portal-harness';

type Received = { from: string; to: string[]; raw: string };

/** A real SMTP server on loopback; `refuse` answers the next recipients with these codes, one each. */
class TestSmtp {
  readonly received: Received[] = [];
  readonly refuse: number[] = [];
  attempts = 0;
  private server?: SMTPServer;

  async start(): Promise<string> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (_address, _session, done) => {
        this.attempts++;
        const code = this.refuse.shift();
        if (code === undefined) return done();
        done(Object.assign(new Error(code >= 500 ? 'mailbox unavailable' : 'try again later'), { responseCode: code }));
      },
      onData: (stream, session, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  to(address: string): Received[] {
    return this.received.filter((m) => m.to.includes(address));
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The text part as sent (quoted-printable soft breaks joined). */
const textOf = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('invitations by e-mail (partner-portal-api over PostgreSQL, NATS, Redis, and a real SMTP server)', () => {
  const smtp = new TestSmtp();
  const h = portalHarnessPerSuite(async () => ({
    SMTP_URL: await smtp.start(),
    MAIL_FROM: 'Acme portal <portal@acme.example>',
    SMTP_RETRY_MS: '20',
  }));
  afterAll(() => smtp.close());

  /** `refuse`: the SMTP server's answers to this invitation's attempts (the team's own invitations come first). */
  const invite = async (email: string, refuse: number[] = []) => {
    const t = await h().team();
    smtp.attempts = 0;
    smtp.refuse.push(...refuse);
    const res = await t.admin.call('POST', `/portal/api/orgs/${t.orgId}/invitations`, { email, role: 'member' });
    return { t, res };
  };

  it('e-mails the link to the invited address from MAIL_FROM; the answer says so and still carries the link', async () => {
    const { t, res } = await invite('Erin@Example.com');

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: 'erin@example.com', emailSent: true });
    expect(res.body.emailError).toBeUndefined();
    const [mail, ...more] = smtp.to('erin@example.com');
    expect(more).toEqual([]);
    expect(mail.from).toBe('portal@acme.example');
    const text = textOf(mail.raw);
    expect(text).toContain('Subject: Invitation to Acme Wallet');
    expect(text).toContain(`Accept the invitation: https://portal.example/portal/invitations/${res.body.token}`);
    expect(text).toContain(`until ${res.body.expiresAt}`);
    // The link e-mailed is the one stored (by its hash), and the invited address accepts it.
    const [row] = await h().db.invitation.findMany({ where: { orgId: t.orgId, email: 'erin@example.com' } });
    expect(row.tokenHash).toBe(sha256(res.body.token));
    const erin = await h().person('erin', 'erin@example.com');
    const accepted = await erin.call('POST', `/portal/api/invitations/${res.body.token}/accept`);
    expect(accepted).toMatchObject({ status: 200, body: { orgId: t.orgId, role: 'member' } });
  });

  it('retries a transient refusal (451) and sends it once', async () => {
    const { res } = await invite('frank@example.com', [451, 451]);

    expect(res.body).toMatchObject({ emailSent: true });
    expect(smtp.attempts).toBe(3);
    expect(smtp.to('frank@example.com')).toHaveLength(1);
  });

  it('a permanent refusal (550) is not retried: the invitation stands and its link is answered to copy, with why', async () => {
    const { t, res } = await invite('gone@example.com', [550]);

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ emailSent: false, emailError: expect.stringMatching(/^SMTP 550: .*mailbox unavailable/) });
    expect(res.body.emailError).not.toContain(res.body.token);
    expect(res.body.link).toBe(`https://portal.example/portal/invitations/${res.body.token}`);
    expect(smtp.attempts).toBe(1);
    expect(smtp.to('gone@example.com')).toEqual([]);
    expect(await h().db.invitation.count({ where: { orgId: t.orgId, email: 'gone@example.com' } })).toBe(1);
  });

  it('gives up after three transient refusals, within a bounded time', async () => {
    const started = Date.now();

    const { res } = await invite('later@example.com', [421, 421, 421]);

    expect(res.body).toMatchObject({ emailSent: false, emailError: expect.stringMatching(/^SMTP 421: /) });
    expect(smtp.attempts).toBe(3);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
