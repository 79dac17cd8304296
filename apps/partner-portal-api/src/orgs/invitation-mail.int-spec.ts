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
    // The test's server offers no STARTTLS (invitation-mail.spec.ts: refused when it is required).
    SMTP_REQUIRE_TLS: 'false',
    SMTP_RETRY_MS: '20',
    INVITATIONS_PER_DAY: '3',
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
    expect(text).toContain('You are invited to join "Acme Wallet" as a member');
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
    expect(res.body).toMatchObject({ emailSent: false, emailError: 'the mail server refused it (SMTP 550)' });
    expect(res.body.link).toBe(`https://portal.example/portal/invitations/${res.body.token}`);
    expect(smtp.attempts).toBe(1);
    expect(smtp.to('gone@example.com')).toEqual([]);
    expect(await h().db.invitation.count({ where: { orgId: t.orgId, email: 'gone@example.com' } })).toBe(1);
  });

  it('gives up after three transient refusals', async () => {
    const { res } = await invite('later@example.com', [421, 421, 421]);

    expect(res.body).toMatchObject({ emailSent: false, emailError: 'the mail server asked to try again later (SMTP 421)' });
    expect(smtp.attempts).toBe(3);
    expect(smtp.to('later@example.com')).toEqual([]);
  });

  it('one person sends at most INVITATIONS_PER_DAY (3 here): the next is 429, nothing stored or sent', async () => {
    const t = await h().team();
    const send = (n: number) =>
      t.admin.call('POST', `/portal/api/orgs/${t.orgId}/invitations`, { email: `quota-${n}@example.com`, role: 'member' });
    for (const n of [1, 2, 3]) expect((await send(n)).status).toBe(201);

    const refused = await send(4);

    expect(refused).toMatchObject({
      status: 429,
      body: { code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/^You have sent 3 invitations in 24 hours/) },
    });
    expect(smtp.to('quota-4@example.com')).toEqual([]);
    expect(await h().db.invitation.count({ where: { orgId: t.orgId, email: 'quota-4@example.com' } })).toBe(0);
    // Someone else in the organisation is counted on their own.
    expect(
      (await t.owner.call('POST', `/portal/api/orgs/${t.orgId}/invitations`, { email: 'quota-5@example.com', role: 'member' })).status,
    ).toBe(201);
  });
});
