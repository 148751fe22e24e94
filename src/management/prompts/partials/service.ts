/** The prompts' partials through the Management API: checked before they are stored (400 with the reason, nothing changed). */
import { partialsProblem, putPartials, readPartials, type PromptPartials } from '../../../domain/branding/partials.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';

export class PartialsService {
  constructor(private readonly ctx: UiSettingsContext) {}

  get(tenant: Tenant, prompt: string): Promise<PromptPartials> {
    return readPartials(this.ctx, tenant.id, prompt);
  }

  async put(tenant: Tenant, prompt: string, body: Record<string, unknown>): Promise<PromptPartials> {
    const problem = partialsProblem(prompt, body);
    if (problem !== undefined) throw managementErrors.invalidBody(`Payload validation error: ${problem}.`);
    return putPartials(this.ctx, tenant.id, prompt, body as Record<string, PromptPartials[string] | null>);
  }
}
