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
 * failures are logged without the message, which carries a live link. The
 * tenant's `verify_email` and `reset_email` templates (../email/templates.ts)
 * give the wording, and their `urlLifetimeInSeconds` the link's lifetime.
 */
import { sendTenantMail, storedTemplate, userVariables, type DefaultMail, type EmailTemplateName, type TenantMailContext } from '../email/templates.js';
import type { Tenant } from '../tenants/tenant.js';
import type { CustomDomainStore } from '../custom-domains/store.js';
import type { UserRow } from '../users/model.js';
import { newSecret, secretHash } from '../secrets.js';
import { type TicketKind, type TicketStore } from './store.js';
import { lifetimeOf, type LifetimeName } from '../lifetimes.js';
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

/** The tenant's template for each kind of ticket mail. */
const TICKET_TEMPLATE: Record<TicketKind, EmailTemplateName> = {
  email_verification: 'verify_email',
  password_reset: 'reset_email',
};

type UserForMail = Pick<UserRow, 'user_id' | 'email'> & Partial<Pick<UserRow, 'name' | 'given_name' | 'family_name' | 'nickname' | 'picture' | 'email_verified' | 'user_metadata' | 'app_metadata'>>;

/** What UserMail touches. */
export interface UserMailContext extends TenantMailContext {
  readonly now: () => number;
  readonly stores: TenantMailContext['stores'] & { readonly tickets: TicketStore; readonly customDomains: Pick<CustomDomainStore, 'findDefault'> };
}

export class UserMail {
  constructor(private readonly ctx: UserMailContext) {}

  /**
   * The host of a link: the custom domain the request came through, else the tenant's default
   * custom domain (PATCH /api/v2/custom-domains/default), else its canonical domain.
   */
  private async linkHost(tenant: Tenant): Promise<string> {
    return tenant.customDomain ?? (await this.ctx.stores.customDomains.findDefault(tenant.id))?.domain ?? tenant.domain;
  }

  /**
   * A ticket living `options.ttlSeconds` (a Management API ticket), else the
   * template's `urlLifetimeInSeconds` when it sets one, else the lifetime of its kind.
   */
  private async issueTicket(tenant: Tenant, userId: string, kind: TicketKind, options: TicketOptions & { templateLifetime?: number | null | undefined } = {}): Promise<string> {
    const ticket = newSecret();
    const now = this.ctx.now();
    const lifetime = options.ttlSeconds ?? (options.templateLifetime || lifetimeOf(tenant, TICKET_LIFETIME[kind]));
    await this.ctx.stores.tickets.insert({
      tenant_id: tenant.id,
      id_hash: secretHash(ticket),
      kind,
      user_id: userId,
      created_at: isoAt(now),
      expires_at: isoAt(now + lifetime * 1000),
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
    return `https://${await this.linkHost(tenant)}/${TICKET_PAGE[kind]}?ticket=${encodeURIComponent(ticket)}#`;
  }

  /** Mails the user a single-use link to `page` (a no-op for a user without an email, or when the tenant disabled the template). */
  private async sendLink(tenant: Tenant, user: UserForMail, kind: TicketKind, page: string, fallback: (link: string) => DefaultMail): Promise<void> {
    if (!user.email) return;
    const template = await storedTemplate(this.ctx, tenant, TICKET_TEMPLATE[kind]);
    if (template?.enabled === 0) return;
    const ticket = await this.issueTicket(tenant, user.user_id, kind, { templateLifetime: template?.url_lifetime_in_seconds });
    const link = `https://${await this.linkHost(tenant)}/${page}?ticket=${encodeURIComponent(ticket)}`;
    await sendTenantMail(this.ctx, tenant, TICKET_TEMPLATE[kind], user.email, fallback(link), { url: link, user: userVariables(user) }, template ?? null);
  }

  /** Mails the user a link to the verification page. */
  sendVerification(tenant: Tenant, user: UserForMail): Promise<void> {
    return this.sendLink(tenant, user, 'email_verification', 'verify-email', (link) => ({
      subject: 'Verify your email',
      text: `Please verify your email address by opening this link:\n\n${link}\n\nThe link works once and expires in 5 days.\n`,
    }));
  }

  /** Mails the user a link to the password reset page. */
  sendPasswordReset(tenant: Tenant, user: UserForMail): Promise<void> {
    return this.sendLink(tenant, user, 'password_reset', 'reset-password', (link) => ({
      subject: 'Reset your password',
      text:
        `Someone asked to reset the password of your account. To choose a new password, open this link:\n\n${link}\n\n` +
        `The link works once and expires in 1 hour. If you did not ask for this, ignore this message.\n`,
    }));
  }
}
