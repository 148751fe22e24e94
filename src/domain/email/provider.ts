/**
 * The tenant's own mail provider (`/api/v2/emails/provider`) as the mail
 * transport reads it: SMTP only, used when set and `enabled`. Its
 * credentials are sealed under the master key (`ctx.box`) as one JSON object
 * and opened only here and by the Management API's service (which never
 * returns the password).
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { EmailProviderStore } from './store.js';
import type { TenantSmtpServer } from '../../platform/mail/index.js';

/** The purpose the credentials are sealed under. */
export const CREDENTIALS_SEAL = 'email provider credentials';

export interface SmtpCredentials {
  smtp_host: string;
  smtp_port: number;
  smtp_user?: string;
  smtp_pass?: string;
}

/** What sealing and opening SMTP credentials takes. */
export interface CredentialSealing {
  readonly box: SecretBox;
}

/** What reading the tenant's SMTP server touches. */
export interface TenantSmtpContext extends CredentialSealing {
  readonly stores: { readonly emailProviders: EmailProviderStore };
}

export function openCredentials(ctx: CredentialSealing, sealed: string): SmtpCredentials {
  return JSON.parse(ctx.box.openString(sealed, CREDENTIALS_SEAL)) as SmtpCredentials;
}

export function sealCredentials(ctx: CredentialSealing, credentials: SmtpCredentials, tenantId: string): string {
  return ctx.box.seal(JSON.stringify(credentials), CREDENTIALS_SEAL, tenantId);
}

/** The tenant's SMTP server when its provider is set and enabled. */
export async function openTenantSmtp(ctx: TenantSmtpContext, tenantId: string): Promise<TenantSmtpServer | undefined> {
  const row = await ctx.stores.emailProviders.get(tenantId);
  if (!row || row.enabled !== 1 || row.name !== 'smtp') return undefined;
  const credentials = openCredentials(ctx, row.credentials_enc);
  return {
    host: credentials.smtp_host,
    port: credentials.smtp_port,
    ...(credentials.smtp_user !== undefined && { user: credentials.smtp_user }),
    ...(credentials.smtp_pass !== undefined && { pass: credentials.smtp_pass }),
    ...(row.default_from_address !== null && { from: row.default_from_address }),
  };
}
