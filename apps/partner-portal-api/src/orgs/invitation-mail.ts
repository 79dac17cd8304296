import { Injectable, Logger } from '@nestjs/common';
import { CONTROL_CHARACTERS } from '@swap/contracts';
import { createTransport } from 'nodemailer';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';

export type Invitation = { email: string; orgName: string; role: string; link: string; expiresAt: string };
/** `sent`; `failed` with the reason in a partner's words (the link is still answered to copy); `undefined` without SMTP_URL. */
export type MailOutcome = { sent: true } | { sent: false; error: string } | undefined;

const ATTEMPTS = 3;

/** Invitations by e-mail through SMTP_URL (docs/integrators/partner-portal.md#invitations-by-e-mail). */
@Injectable()
export class InvitationMail {
  private readonly log = new Logger(InvitationMail.name);

  constructor(private readonly config: PartnerPortalApiConfig) {}

  /**
   * Retried on a transient failure (no connection, a timeout, a 4xx reply), all attempts within
   * SMTP_TIMEOUT_MS, so the invitation's answer never waits longer; never logs the link (it holds the token).
   */
  async send(invitation: Invitation): Promise<MailOutcome> {
    const { SMTP_URL: url, SMTP_TIMEOUT_MS: budget, SMTP_RETRY_MS: retry } = this.config;
    if (!url) return undefined;
    const deadline = Date.now() + budget;
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      try {
        await this.attempt(url, invitation, left);
        this.log.log(`invitation e-mailed to ${invitation.email} (${invitation.role}) on attempt ${attempt}`);
        return { sent: true };
      } catch (e) {
        const wait = retry * attempt;
        if (attempt >= ATTEMPTS || !transient(e) || deadline - Date.now() <= wait + 100) {
          this.log.warn(`invitation e-mail to ${invitation.email} not sent after ${attempt} attempt(s): ${detailOf(e)}`);
          return { sent: false, error: reasonOf(e) };
        }
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** One connection, every step and the whole of it bounded by what is left of the budget. */
  private async attempt(url: string, invitation: Invitation, left: number): Promise<void> {
    const transport = createTransport(
      {
        url,
        requireTLS: this.config.SMTP_REQUIRE_TLS === 'true' && url.startsWith('smtp:'),
        connectionTimeout: left,
        greetingTimeout: left,
        socketTimeout: left,
      },
      { from: this.config.MAIL_FROM },
    );
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        transport.sendMail(message(invitation)),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(Object.assign(new Error('no answer within SMTP_TIMEOUT_MS'), { code: 'ETIMEDOUT' })), left);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      transport.close();
    }
  }
}

/** Organisation names are free text: no line of theirs may start a line of the message. */
const oneLine = (text: string) => text.replace(new RegExp(`${CONTROL_CHARACTERS.source}+`, 'gu'), ' ');

function message(i: Invitation) {
  const org = oneLine(i.orgName);
  const text = [
    `You are invited to join "${org}" as ${i.role === 'admin' ? 'an admin' : `a ${i.role}`} in the swap platform's partner portal.`,
    '',
    `Accept the invitation: ${i.link}`,
    '',
    `The link can be used once, by the invited address, until ${i.expiresAt}. If you did not expect it, ignore this e-mail.`,
  ].join('\n');
  return { to: i.email, subject: `Invitation to ${org}`, text };
}

type SmtpError = Error & { responseCode?: number; code?: string };

function transient(e: unknown): boolean {
  const { responseCode, code } = e as SmtpError;
  if (code === 'ETLS' || code === 'EAUTH') return false;
  if (responseCode !== undefined) return responseCode >= 400 && responseCode < 500;
  return code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EDNS';
}

/** For the inviting partner: what kind of failure, not the mail server's addresses or replies (those are logged). */
function reasonOf(e: unknown): string {
  const { responseCode, code } = e as SmtpError;
  if (code === 'ETLS') return 'the mail server offered no TLS, which the portal requires (SMTP_REQUIRE_TLS)';
  if (code === 'EAUTH') return 'the portal could not sign in to the mail server (its configuration)';
  if (responseCode && responseCode >= 500) return `the mail server refused it (SMTP ${responseCode})`;
  if (responseCode) return `the mail server asked to try again later (SMTP ${responseCode})`;
  if (code === 'ETIMEDOUT') return 'the mail server did not answer in time';
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS') return 'the mail server could not be reached';
  return 'the e-mail could not be sent';
}

/** For the log: the SMTP reply or the connection's failure, first line only. */
function detailOf(e: unknown): string {
  const { responseCode, code, message: text } = e as SmtpError;
  return `${responseCode ? `SMTP ${responseCode}` : (code ?? 'error')}: ${String(text).split('\n')[0].slice(0, 200)}`;
}
