/**
 * Business rules of the tenant's email templates (/api/v2/email-templates):
 *
 * - one per template name; POST of an existing one is 409 "Template
 *   (name) already exists." (the document's wording); PUT creates or
 *   replaces; PATCH changes the members given (404 "Template not found and
 *   cannot be updated." without one); GET of one never set is 404;
 * - `syntax` is `liquid` (the only one the service documents; null is taken
 *   as liquid); the body, subject and sender must parse as Liquid (400 with
 *   the parser's first line), so a template never fails at send time for its
 *   syntax;
 * - `resultUrl` must be an https URL (or http to a loopback host, for
 *   development);
 * - PUT and PATCH name the template in the path; a body's `template` must
 *   agree with it.
 *
 * Where each template is used, and with which variables:
 * ../../domain/email/templates.ts.
 */
import type { EmailTemplateName } from '../../domain/email/templates.js';
import type { EmailTemplateRow } from '../../domain/rows.js';
import { renderTemplateProblem } from '../../domain/templates.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { EmailTemplateStore } from '../../domain/email/store.js';

export interface EmailTemplate {
  template: EmailTemplateName;
  body: string | null;
  from: string | null;
  resultUrl?: string | null;
  subject: string | null;
  syntax: string | null;
  urlLifetimeInSeconds?: number | null;
  includeEmailInRedirect: boolean;
  enabled: boolean | null;
}

type Body = Partial<EmailTemplate>;

function toApi(row: EmailTemplateRow): EmailTemplate {
  return {
    template: row.template as EmailTemplateName,
    body: row.body,
    from: row.from,
    resultUrl: row.result_url,
    subject: row.subject,
    syntax: row.syntax,
    urlLifetimeInSeconds: row.url_lifetime_in_seconds,
    includeEmailInRedirect: row.include_email_in_redirect === 1,
    enabled: row.enabled === null ? null : row.enabled === 1,
  };
}

const notFound = () => managementErrors.notFound('Template not found and cannot be updated.');

function check(body: Body, pathName?: string): void {
  if (pathName !== undefined && body.template !== undefined && body.template !== pathName) {
    throw managementErrors.invalidBody(`The template in the body (${body.template}) does not match the one in the path (${pathName}).`);
  }
  if (body.syntax !== undefined && body.syntax !== null && body.syntax !== 'liquid') throw managementErrors.invalidBody('syntax must be liquid.');
  for (const member of ['body', 'subject', 'from'] as const) {
    const value = body[member];
    const problem = typeof value === 'string' ? renderTemplateProblem(value) : undefined;
    if (problem !== undefined) throw managementErrors.invalidBody(`The ${member} is not a valid Liquid template: ${problem}`);
  }
  if (typeof body.resultUrl === 'string' && body.resultUrl !== '') {
    const url = URL.canParse(body.resultUrl) ? new URL(body.resultUrl) : undefined;
    const loopback = url !== undefined && url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (!url || (url.protocol !== 'https:' && !loopback)) throw managementErrors.invalidBody('resultUrl must be an https URL.');
  }
}

function changesOf(body: Body): Partial<EmailTemplateRow> {
  const changes: Partial<EmailTemplateRow> = {};
  if (body.body !== undefined) changes.body = body.body;
  if (body.from !== undefined) changes.from = body.from;
  if (body.subject !== undefined) changes.subject = body.subject;
  if (body.syntax !== undefined) changes.syntax = body.syntax;
  if (body.resultUrl !== undefined) changes.result_url = body.resultUrl;
  if (body.urlLifetimeInSeconds !== undefined) changes.url_lifetime_in_seconds = body.urlLifetimeInSeconds;
  if (body.includeEmailInRedirect !== undefined) changes.include_email_in_redirect = body.includeEmailInRedirect ? 1 : 0;
  if (body.enabled !== undefined) changes.enabled = body.enabled === null ? null : body.enabled ? 1 : 0;
  return changes;
}

/** What EmailTemplateService touches. */
export interface EmailTemplateServiceContext {
  readonly now: () => number;
  readonly stores: { readonly emailTemplates: EmailTemplateStore };
}

export class EmailTemplateService {
  constructor(private readonly ctx: EmailTemplateServiceContext) {}

  async get(tenant: Tenant, name: EmailTemplateName): Promise<EmailTemplate> {
    const row = await this.ctx.stores.emailTemplates.get(tenant.id, name);
    if (!row) throw managementErrors.notFound('The template does not exist.');
    return toApi(row);
  }

  private newRow(tenant: Tenant, name: EmailTemplateName, body: Body): EmailTemplateRow {
    const now = isoAt(this.ctx.now());
    return {
      tenant_id: tenant.id,
      template: name,
      body: null,
      from: null,
      subject: null,
      syntax: 'liquid',
      result_url: null,
      url_lifetime_in_seconds: null,
      include_email_in_redirect: 0,
      enabled: 1,
      ...changesOf(body),
      created_at: now,
      updated_at: now,
    };
  }

  async create(tenant: Tenant, body: Body & { template: EmailTemplateName }): Promise<EmailTemplate> {
    check(body);
    const row = this.newRow(tenant, body.template, body);
    if (!(await this.ctx.stores.emailTemplates.insert(row))) throw managementErrors.conflict(`Template (${body.template}) already exists.`);
    return toApi(row);
  }

  /** PUT: the template as the body says, created when missing. */
  async set(tenant: Tenant, name: EmailTemplateName, body: Body): Promise<EmailTemplate> {
    check(body, name);
    const row = this.newRow(tenant, name, body);
    if (await this.ctx.stores.emailTemplates.insert(row)) return toApi(row);
    const { tenant_id: _t, template: _n, created_at: _c, ...replacement } = row;
    if (!(await this.ctx.stores.emailTemplates.update(tenant.id, name, replacement))) throw notFound();
    return this.get(tenant, name);
  }

  async update(tenant: Tenant, name: EmailTemplateName, body: Body): Promise<EmailTemplate> {
    check(body, name);
    const changes = { ...changesOf(body), updated_at: isoAt(this.ctx.now()) };
    if (!(await this.ctx.stores.emailTemplates.update(tenant.id, name, changes))) throw notFound();
    return this.get(tenant, name);
  }
}
