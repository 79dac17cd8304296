import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { PartnerPortalApiConfig } from '../partner-portal-api.config';

export type Invitation = { email: string; orgName: string; role: string; link: string; expiresAt: string };
/** `sent`; `failed` with the reason (the link is still answered to copy); `undefined` without SMTP_URL. */
export type MailOutcome = { sent: true } | { sent: false; error: string } | undefined;

const ATTEMPTS = 3;

/** Invitations by e-mail through SMTP_URL (docs/integrators/partner-portal.md#invitations-by-e-mail). */
@Injectable()
export class InvitationMail implements OnModuleDestroy {
  private readonly log = new Logger(InvitationMail.name);
  private readonly transport?: Transporter;

  constructor(private readonly config: PartnerPortalApiConfig) {
    if (config.SMTP_URL)
      this.transport = createTransport(
        {
          url: config.SMTP_URL,
          connectionTimeout: config.SMTP_TIMEOUT_MS,
          greetingTimeout: config.SMTP_TIMEOUT_MS,
          socketTimeout: config.SMTP_TIMEOUT_MS,
        },
        { from: config.MAIL_FROM },
      );
  }

  /** Retried on a transient failure (no connection, a 4xx reply); never logs the link, which holds the token. */
  async send(invitation: Invitation): Promise<MailOutcome> {
    if (!this.transport) return undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.transport.sendMail(message(invitation));
        this.log.log(`invitation e-mailed to ${invitation.email} (${invitation.orgName}, ${invitation.role})`);
        return { sent: true };
      } catch (e) {
        const error = reasonOf(e);
        if (attempt >= ATTEMPTS || !transient(e)) {
          this.log.warn(`invitation e-mail to ${invitation.email} not sent after ${attempt} attempt(s): ${error}`);
          return { sent: false, error };
        }
        await new Promise((r) => setTimeout(r, this.config.SMTP_RETRY_MS * attempt));
      }
    }
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

function message(i: Invitation) {
  const text = [
    `You are invited to join ${i.orgName} as ${i.role === 'admin' ? 'an admin' : `a ${i.role}`} in the swap platform's partner portal.`,
    '',
    `Accept the invitation: ${i.link}`,
    '',
    `The link can be used once, by the invited address, until ${i.expiresAt}. If you did not expect it, ignore this e-mail.`,
  ].join('\n');
  return { to: i.email, subject: `Invitation to ${i.orgName}`, text };
}

type SmtpError = Error & { responseCode?: number; code?: string };

function transient(e: unknown): boolean {
  const { responseCode, code } = e as SmtpError;
  if (responseCode !== undefined) return responseCode >= 400 && responseCode < 500;
  return code === 'ECONNECTION' || code === 'ETIMEDOUT' || code === 'ESOCKET' || code === 'EDNS';
}

/** What went wrong, without the message: an SMTP reply or the connection's failure. */
function reasonOf(e: unknown): string {
  const { responseCode, code, message: text } = e as SmtpError;
  const reason = responseCode ? `SMTP ${responseCode}` : (code ?? 'error');
  return `${reason}: ${String(text).split('\n')[0].slice(0, 200)}`;
}
