/**
 * The tenant's phone provider through the Management API: the document's
 * 404 "Phone provider has not been configured." for an unknown id, 409 for a
 * second provider, 400 with the reason for a configuration its name cannot
 * use. `try` sends a test text through that provider (even disabled):
 * 202 `{code: 202, message}`; a `custom` provider's is refused with 409 (its
 * Action is not run here), voice with 400, Twilio's refusal with 400 naming
 * Twilio's status and code.
 */
import {
  createPhoneProvider,
  deletePhoneProvider,
  findPhoneProvider,
  listPhoneProviders,
  PhoneDeliveryError,
  phoneProviderProblem,
  sendPhoneText,
  updatePhoneProvider,
  type PhoneDeliveryContext,
  type PhoneProvider,
  type PhoneProviderContext,
} from '../../../domain/branding/phone-providers.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { CreatePhoneProvider, Try, UpdatePhoneProvider } from './schema.js';

const missing = () => managementErrors.notFound('Phone provider has not been configured.', 'inexistent_phone_provider');

/** A failed test message as the Management API answers it. */
export function phoneDeliveryRefusal(error: unknown): Error {
  if (!(error instanceof PhoneDeliveryError)) return error as Error;
  if (error.reason === 'custom_provider') return managementErrors.conflict(error.message, 'custom_phone_provider');
  return managementErrors.badRequest(error.message, 'invalid_body');
}

export class PhoneProviderService {
  constructor(private readonly ctx: PhoneProviderContext & PhoneDeliveryContext) {}

  async list(tenant: Tenant, disabled?: boolean): Promise<{ providers: PhoneProvider[] }> {
    const all = await listPhoneProviders(this.ctx, tenant.id, tenant.name);
    return { providers: disabled === undefined ? all : all.filter((p) => p.disabled === disabled) };
  }

  async create(tenant: Tenant, body: CreatePhoneProvider): Promise<PhoneProvider> {
    const input = { name: body.name, credentials: body.credentials, ...(body.disabled !== undefined && { disabled: body.disabled }), ...(body.configuration && { configuration: body.configuration }) };
    const problem = phoneProviderProblem(input, false);
    if (problem !== undefined) throw managementErrors.invalidBody(`Payload validation error: ${problem}.`);
    const created = await createPhoneProvider(this.ctx, tenant.id, tenant.name, input);
    if (!created) throw managementErrors.conflict('A phone provider is already configured for this tenant: update it with PATCH /api/v2/branding/phone/providers/{id}', 'phone_provider_exists');
    return created;
  }

  async get(tenant: Tenant, id: string): Promise<PhoneProvider> {
    return (await findPhoneProvider(this.ctx, tenant.id, tenant.name, id)) ?? Promise.reject(missing());
  }

  async update(tenant: Tenant, id: string, body: UpdatePhoneProvider): Promise<PhoneProvider> {
    const updated = await updatePhoneProvider(this.ctx, tenant.id, tenant.name, id, body);
    if (updated === undefined) throw missing();
    if (typeof updated === 'string') throw managementErrors.invalidBody(`Payload validation error: ${updated}.`);
    return updated;
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await deletePhoneProvider(this.ctx, tenant.id, id))) throw missing();
  }

  async try(tenant: Tenant, id: string, body: Try): Promise<{ code: number; message: string }> {
    await this.get(tenant, id);
    if (body.delivery_method === 'voice') throw managementErrors.badRequest('Voice delivery is not available in Gatehouse: phone messages are sent as text.', 'invalid_body');
    try {
      await sendPhoneText(this.ctx, tenant.id, body.to, `This is a test message from ${tenant.name} to check its phone provider.`, {}, { providerOnly: true });
    } catch (error) {
      throw phoneDeliveryRefusal(error);
    }
    return { code: 202, message: 'Phone notification sent.' };
  }
}
