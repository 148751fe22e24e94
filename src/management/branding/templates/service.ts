/**
 * The tenant's page template through the Management API: checked before it
 * is stored (the service's 400 messages: too long, missing tags, a Liquid
 * syntax error; and Gatehouse's refusal of file tags), 404 when there is none.
 */
import { deletePageTemplate, pageTemplateProblem, putPageTemplate, readPageTemplate } from '../../../domain/branding/page-template.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';

const noTemplate = () => managementErrors.notFound('Template does not exist.', 'inexistent_template');

export class PageTemplateService {
  constructor(private readonly ctx: UiSettingsContext) {}

  async get(tenant: Tenant): Promise<{ body: string }> {
    const body = await readPageTemplate(this.ctx, tenant.id);
    if (body === undefined) throw noTemplate();
    return { body };
  }

  /** True when the template was created (201), false when it replaced one (204). */
  async put(tenant: Tenant, given: string | { template: string }): Promise<boolean> {
    const template = typeof given === 'string' ? given : given.template;
    const problem = pageTemplateProblem(template);
    if (problem !== undefined) throw managementErrors.badRequest(problem, 'invalid_body');
    return putPageTemplate(this.ctx, tenant.id, template);
  }

  async delete(tenant: Tenant): Promise<void> {
    await deletePageTemplate(this.ctx, tenant.id);
  }
}
