/** The tenant's phone templates through the Management API, with the document's 404 and 409 messages. */
import {
  createPhoneTemplate,
  deletePhoneTemplate,
  findPhoneTemplate,
  listPhoneTemplates,
  resetPhoneTemplate,
  updatePhoneTemplate,
  type PhoneTemplate,
} from '../../../domain/branding/phone-templates.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { CreatePhoneTemplate, UpdatePhoneTemplate } from './schema.js';

const missing = () => managementErrors.notFound('Phone template does not exist', 'inexistent_phone_template');
const found = (template: PhoneTemplate | undefined): PhoneTemplate => {
  if (!template) throw missing();
  return template;
};

export class PhoneTemplateService {
  constructor(private readonly ctx: UiSettingsContext) {}

  async list(tenant: Tenant, disabled?: boolean): Promise<{ templates: PhoneTemplate[] }> {
    const all = await listPhoneTemplates(this.ctx, tenant.id, tenant.name);
    return { templates: disabled === undefined ? all : all.filter((t) => t.disabled === disabled) };
  }

  async create(tenant: Tenant, body: CreatePhoneTemplate): Promise<PhoneTemplate> {
    const created = await createPhoneTemplate(this.ctx, tenant.id, tenant.name, body);
    if (!created) throw managementErrors.conflict('Phone template already configured for tenant', 'phone_template_exists');
    return created;
  }

  async get(tenant: Tenant, id: string): Promise<PhoneTemplate> {
    return found(await findPhoneTemplate(this.ctx, tenant.id, tenant.name, id));
  }

  async update(tenant: Tenant, id: string, body: UpdatePhoneTemplate): Promise<PhoneTemplate> {
    return found(await updatePhoneTemplate(this.ctx, tenant.id, tenant.name, id, body));
  }

  async reset(tenant: Tenant, id: string): Promise<PhoneTemplate> {
    return found(await resetPhoneTemplate(this.ctx, tenant.id, tenant.name, id));
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await deletePhoneTemplate(this.ctx, tenant.id, tenant.name, id))) throw missing();
  }
}
