/**
 * The mails that carry a ticket to a user: the email verification link and
 * the password reset link. One place for both, used by the database
 * connection endpoints (signup, change_password) and the Management API
 * (POST and PATCH /users with `verify_email`).
 *
 * Tickets: email verification links live 5 days, password reset links 1 hour;
 * both are single use, and only their hash is stored (./store.ts).
 * Mail is handed to the mailer without waiting for delivery (a slow SMTP
 * server must not hold the request, nor make known addresses answer slower);
 * failures are logged without the message, which carries a live link.
 */
import type { MailMessage } from '../../platform/mail/index.js';
import type { Tenant } from '../tenants/tenant.js';
import type { UserRow } from '../users/model.js';
import { newSecret, secretHash } from '../secrets.js';
import { type TicketKind } from './store.js';
import { lifetimeOf, type LifetimeName } from '../lifetimes.js';
import type { AppContext } from '../context.js';
import { isoAt } from '../../platform/clock.js';

/** The lifetime of each kind of ticket (src/domain/lifetimes.ts). */
const TICKET_LIFETIME: Record<TicketKind, LifetimeName> = {
  email_verification: 'email_verification_ticket',
  password_reset: 'password_reset_ticket',
};

/** The page of each kind of ticket (src/authentication/pages/). */
const TICKET_PAGE: Record<TicketKind, string> = { email_verification: 'verify-email', password_reset: 'reset-password' };

/** What a ticket of the Management API says beyond the defaults. */
export interface TicketOptions {
  ttlSeconds?: number | undefined;
  resultUrl?: string | undefined;
  markEmailVerified?: boolean | undefined;
  includeEmail?: boolean | undefined;
}

export class UserMail {
  constructor(private readonly ctx: Pick<AppContext, 'stores' | 'mailer' | 'logger' | 'now'>) {}

  private async issueTicket(tenant: Tenant, userId: string, kind: TicketKind, options: TicketOptions = {}): Promise<string> {
    const ticket = newSecret();
    const now = this.ctx.now();
    await this.ctx.stores.tickets.insert({
      tenant_id: tenant.id,
      id_hash: secretHash(ticket),
      kind,
      user_id: userId,
      created_at: isoAt(now),
      expires_at: isoAt(now + (options.ttlSeconds ?? lifetimeOf(tenant, TICKET_LIFETIME[kind])) * 1000),
      result_url: options.resultUrl ?? null,
      mark_email_verified: options.markEmailVerified === undefined ? null : options.markEmailVerified ? 1 : 0,
      include_email: options.includeEmail ? 1 : null,
    });
    return ticket;
  }

  /**
   * A ticket URL of the Management API (POST /tickets/password-change,
   * /tickets/email-verification): the link of the page, nothing mailed.
   */
  async ticketUrl(tenant: Tenant, userId: string, kind: TicketKind, options: TicketOptions): Promise<string> {
    const ticket = await this.issueTicket(tenant, userId, kind, options);
    return `https://${tenant.domain}/${TICKET_PAGE[kind]}?ticket=${encodeURIComponent(ticket)}#`;
  }

  private dispatch(tenant: Tenant, message: MailMessage, purpose: string): void {
    this.ctx.mailer
      .send(tenant.domain, message)
      .catch((err: unknown) => this.ctx.logger.error({ err, tenant: tenant.name, purpose }, 'sending mail failed'));
  }

  /** Mails the user a single-use link to `page` (a no-op for a user without an email). */
  private async sendLink(tenant: Tenant, user: Pick<UserRow, 'user_id' | 'email'>, kind: TicketKind, page: string, subject: string, text: (link: string) => string): Promise<void> {
    if (!user.email) return;
    const ticket = await this.issueTicket(tenant, user.user_id, kind);
    const link = `https://${tenant.domain}/${page}?ticket=${encodeURIComponent(ticket)}`;
    this.dispatch(tenant, { to: user.email, subject, text: text(link) }, kind);
  }

  /** Mails the user a link to the verification page. */
  sendVerification(tenant: Tenant, user: Pick<UserRow, 'user_id' | 'email'>): Promise<void> {
    return this.sendLink(tenant, user, 'email_verification', 'verify-email', 'Verify your email', (link) =>
      `Please verify your email address by opening this link:\n\n${link}\n\nThe link works once and expires in 5 days.\n`,
    );
  }

  /** Mails the user a link to the password reset page. */
  sendPasswordReset(tenant: Tenant, user: Pick<UserRow, 'user_id' | 'email'>): Promise<void> {
    return this.sendLink(
      tenant,
      user,
      'password_reset',
      'reset-password',
      'Reset your password',
      (link) =>
        `Someone asked to reset the password of your account. To choose a new password, open this link:\n\n${link}\n\n` +
        `The link works once and expires in 1 hour. If you did not ask for this, ignore this message.\n`,
    );
  }
}
