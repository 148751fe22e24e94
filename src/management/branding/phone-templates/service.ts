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
import { sendPhoneText, type PhoneDeliveryContext } from '../../../domain/branding/phone-providers.js';
import { phoneTemplateVariables } from '../../../domain/branding/phone-templates.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import { totpIssuer } from '../../../domain/mfa/service.js';
import { renderLine } from '../../../domain/templates.js';
import { phoneDeliveryRefusal } from '../phone-providers/service.js';
import type { Try } from '../phone-providers/schema.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { CreatePhoneTemplate, UpdatePhoneTemplate } from './schema.js';

const missing = () => managementErrors.notFound('Phone template does not exist', 'inexistent_phone_template');
const found = (template: PhoneTemplate | undefined): PhoneTemplate => {
  if (!template) throw missing();
  return template;
};

export class PhoneTemplateService {
  constructor(private readonly ctx: UiSettingsContext & PhoneDeliveryContext) {}

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

  /** The template's text with a sample code (000000), sent to `to` through the tenant's provider as a real message would be. */
  async try(tenant: Tenant, id: string, body: Try): Promise<{ message: string }> {
    const template = await this.get(tenant, id);
    if (body.delivery_method === 'voice') throw managementErrors.badRequest('Voice delivery is not available in Gatehouse: phone messages are sent as text.', 'invalid_body');
    const text = await renderLine(template.content.body.text ?? '', phoneTemplateVariables(totpIssuer(tenant), '000000'));
    try {
      await sendPhoneText(this.ctx, tenant.id, body.to, text, template.content.from === undefined ? {} : { from: template.content.from });
    } catch (error) {
      throw phoneDeliveryRefusal(error);
    }
    return { message: 'Phone notification sent.' };
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await deletePhoneTemplate(this.ctx, tenant.id, tenant.name, id))) throw missing();
  }
}
