/**
 * Business rules of the tenant's email provider (/api/v2/emails/provider):
 *
 * - one per tenant (POST again is 409 "Email provider is already
 *   configured."; GET, PATCH, DELETE without one are 404 "Email provider has
 *   not been configured.", the document's wordings);
 * - `smtp` only: Gatehouse speaks SMTP and no provider's HTTP API, so any
 *   other `name` is refused (400, `operation_not_supported`);
 * - `credentials` need `smtp_host` and `smtp_port`; `smtp_user` and
 *   `smtp_pass` go together (both or neither). They are sealed with the
 *   master key, never returned (`smtp_pass`) and never logged; a PATCH's
 *   credentials replace the stored ones member by member;
 * - once set and `enabled` (the default), the tenant's mail goes through it
 *   (../../../domain/email/provider.ts, ../../../platform/mail/index.ts).
 */
import { openCredentials, sealCredentials, type SmtpCredentials, type CredentialSealing } from '../../../domain/email/provider.js';
import type { EmailProviderRow } from '../../../domain/rows.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { fieldSelection, selectFields } from '../../fields.js';
import type { EmailProviderStore } from '../../../domain/email/store.js';

export interface EmailProvider {
  name: string;
  enabled: boolean;
  default_from_address?: string;
  credentials: { smtp_host?: string; smtp_port?: number; smtp_user?: string };
  settings?: Record<string, unknown>;
}

type Credentials = Partial<SmtpCredentials>;
interface Body {
  name?: string;
  enabled?: boolean;
  default_from_address?: string;
  credentials?: Credentials;
  settings?: Record<string, unknown> | null;
}

const notConfigured = () => managementErrors.notFound('Email provider has not been configured.');

function checkName(name: string | undefined): void {
  if (name !== undefined && name !== 'smtp') {
    throw managementErrors.badRequest(`The ${name} email provider is not available in Gatehouse; use smtp.`, 'operation_not_supported');
  }
}

function checkCredentials(credentials: Credentials): SmtpCredentials {
  if (credentials.smtp_host === undefined || credentials.smtp_port === undefined) throw managementErrors.invalidBody('credentials need smtp_host and smtp_port.');
  if ((credentials.smtp_user === undefined) !== (credentials.smtp_pass === undefined)) throw managementErrors.invalidBody('credentials need smtp_user and smtp_pass together.');
  return credentials as SmtpCredentials;
}

/** What EmailProviderService touches. */
export interface EmailProviderServiceContext extends CredentialSealing {
  readonly now: () => number;
  readonly stores: { readonly emailProviders: EmailProviderStore };
}

export class EmailProviderService {
  constructor(private readonly ctx: EmailProviderServiceContext) {}

  private toApi(row: EmailProviderRow): EmailProvider {
    const { smtp_host, smtp_port, smtp_user } = openCredentials(this.ctx, row.credentials_enc);
    return {
      name: row.name,
      enabled: row.enabled === 1,
      ...(row.default_from_address !== null && { default_from_address: row.default_from_address }),
      credentials: { smtp_host, smtp_port, ...(smtp_user !== undefined && { smtp_user }) },
      ...(row.settings !== null && { settings: row.settings }),
    };
  }

  async get(tenant: Tenant, query: { fields?: string; include_fields?: boolean } = {}): Promise<Partial<EmailProvider>> {
    const row = await this.ctx.stores.emailProviders.get(tenant.id);
    if (!row) throw notConfigured();
    return selectFields(this.toApi(row), fieldSelection(query));
  }

  async create(tenant: Tenant, body: Body & { name: string; credentials: Credentials }): Promise<EmailProvider> {
    checkName(body.name);
    const now = isoAt(this.ctx.now());
    const row: EmailProviderRow = {
      tenant_id: tenant.id,
      name: body.name,
      enabled: body.enabled === false ? 0 : 1,
      default_from_address: body.default_from_address ?? null,
      credentials_enc: sealCredentials(this.ctx, checkCredentials(body.credentials), tenant.id),
      settings: body.settings ?? null,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.ctx.stores.emailProviders.insert(row))) throw managementErrors.conflict('Email provider is already configured.');
    return this.toApi(row);
  }

  async update(tenant: Tenant, body: Body): Promise<EmailProvider> {
    checkName(body.name);
    const current = await this.ctx.stores.emailProviders.get(tenant.id);
    if (!current) throw notConfigured();
    const changes: Partial<EmailProviderRow> = { updated_at: isoAt(this.ctx.now()) };
    if (body.name !== undefined) changes.name = body.name;
    if (body.enabled !== undefined) changes.enabled = body.enabled ? 1 : 0;
    if (body.default_from_address !== undefined) changes.default_from_address = body.default_from_address;
    if (body.settings !== undefined) changes.settings = body.settings;
    if (body.credentials !== undefined) {
      const merged = { ...openCredentials(this.ctx, current.credentials_enc), ...body.credentials };
      changes.credentials_enc = sealCredentials(this.ctx, checkCredentials(merged), tenant.id);
    }
    if (!(await this.ctx.stores.emailProviders.update(tenant.id, changes))) throw notConfigured();
    return this.toApi({ ...current, ...changes });
  }

  async remove(tenant: Tenant): Promise<void> {
    if (!(await this.ctx.stores.emailProviders.delete(tenant.id))) throw notConfigured();
  }
}
