/**
 * The tenant's email templates (`/api/v2/email-templates/{templateName}`) in
 * the mail Gatehouse sends, rendered with liquidjs (../templates.ts: no file
 * access, bounded render) with the service's variables:
 *
 * - every template: `application` (`name`, `clientID`) when a client is
 *   known, `user` (`email`, `name`, `given_name`, `family_name`, `nickname`,
 *   `picture`, `user_id`, `email_verified`, `user_metadata`, `app_metadata`),
 *   `connection.name`, `tenant` (the tenant's name), `friendly_name`;
 * - `url` for templates that carry a link (verify_email, reset_email,
 *   user_invitation, enrollment_email), `code` for mfa_oob_code, and
 *   `organization` (`id`, `name`, `display_name`, `metadata`) and
 *   `inviter.name` for user_invitation.
 *
 * Without a stored template, Gatehouse's own wording is sent; a stored
 * template with `enabled: false` means the mail is not sent (as the service
 * does). The subject and body come from the template; the plain-text part is
 * Gatehouse's wording (the template's body is HTML). The template's `from`
 * is used only when the tenant sends through its own provider
 * (`/api/v2/emails/provider`): through the operator's server the operator's
 * sender stays. A template that fails to render at send time falls back to
 * Gatehouse's wording, logged without the message.
 *
 * Mail is handed to the transport without waiting for delivery (a slow SMTP
 * server must not hold the request); the lookups before it are awaited.
 */
import type { Logger } from 'pino';
import type { Mailer } from '../../platform/mail/index.js';
import type { EmailTemplateRow } from '../rows.js';
import { renderHtml, renderLine } from '../templates.js';
import type { Tenant } from '../tenants/tenant.js';
import { openTenantSmtp, type TenantSmtpContext } from './provider.js';
import type { EmailTemplateStore } from './store.js';

export const EMAIL_TEMPLATE_NAMES = [
  'verify_email',
  'verify_email_by_code',
  'auth_email_by_code',
  'reset_email',
  'reset_email_by_code',
  'welcome_email',
  'blocked_account',
  'stolen_credentials',
  'enrollment_email',
  'mfa_oob_code',
  'user_invitation',
  'change_password',
  'password_reset',
  'async_approval',
] as const;
export type EmailTemplateName = (typeof EMAIL_TEMPLATE_NAMES)[number];

/** Gatehouse's own wording of a mail. */
export interface DefaultMail {
  subject: string;
  text: string;
}

/** What sending the tenant's mail touches. */
export interface TenantMailContext extends TenantSmtpContext {
  readonly logger: Logger;
  readonly mailer: Mailer;
  readonly stores: TenantSmtpContext['stores'] & { readonly emailTemplates: EmailTemplateStore };
}

/** The user fields templates see (`user.*`). */
export function userVariables(user: {
  user_id: string;
  email?: string | null;
  name?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  nickname?: string | null;
  picture?: string | null;
  email_verified?: number | boolean;
  user_metadata?: unknown;
  app_metadata?: unknown;
}): Record<string, unknown> {
  return {
    user_id: user.user_id,
    email: user.email ?? undefined,
    name: user.name ?? undefined,
    given_name: user.given_name ?? undefined,
    family_name: user.family_name ?? undefined,
    nickname: user.nickname ?? undefined,
    picture: user.picture ?? undefined,
    email_verified: user.email_verified === true || user.email_verified === 1,
    user_metadata: user.user_metadata ?? {},
    app_metadata: user.app_metadata ?? {},
  };
}

/** The template stored for the tenant, if any. */
export function storedTemplate(ctx: { readonly stores: { readonly emailTemplates: EmailTemplateStore } }, tenant: Tenant, template: EmailTemplateName): Promise<EmailTemplateRow | undefined> {
  return ctx.stores.emailTemplates.get(tenant.id, template);
}

async function render(row: EmailTemplateRow, fallback: DefaultMail, variables: Record<string, unknown>, ownProvider: boolean) {
  const subject = row.subject ? await renderLine(row.subject, variables) : fallback.subject;
  const html = row.body ? await renderHtml(row.body, variables) : undefined;
  const from = ownProvider && row.from ? await renderLine(row.from, variables) : undefined;
  return { subject, ...(html !== undefined && { html }), ...(from && { from }) };
}

/**
 * Sends the tenant's `template` mail to `to`: the stored template rendered
 * with `variables` (plus the tenant's), or `fallback`. Resolves once the
 * message is handed to the transport; never rejects (failures are logged).
 * `row` is the template when the caller already read it.
 */
export async function sendTenantMail(
  ctx: TenantMailContext,
  tenant: Tenant,
  template: EmailTemplateName,
  to: string,
  fallback: DefaultMail,
  variables: Record<string, unknown>,
  row?: EmailTemplateRow | null,
): Promise<void> {
  const log = (err: unknown) => ctx.logger.error({ err, tenant: tenant.name, purpose: template }, 'sending mail failed');
  try {
    const stored = row === undefined ? await storedTemplate(ctx, tenant, template) : (row ?? undefined);
    if (stored?.enabled === 0) return;
    let message: { to: string; subject: string; text: string; html?: string; from?: string } = { to, ...fallback };
    if (stored) {
      const ownProvider = (await openTenantSmtp(ctx, tenant.id)) !== undefined;
      try {
        message = { ...message, ...(await render(stored, fallback, { tenant: tenant.name, friendly_name: tenant.name, ...variables }, ownProvider)) };
      } catch (err) {
        ctx.logger.warn({ err, tenant: tenant.name, template }, 'the email template did not render; Gatehouse\'s wording was sent');
      }
    }
    const transport = await ctx.mailer.transportForTenant(tenant);
    transport.send(message).catch(log);
  } catch (err) {
    log(err);
  }
}
