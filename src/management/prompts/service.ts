/**
 * The prompts' settings (GET/PATCH /api/v2/prompts: `identifier_first` gives
 * the two-step login) and the custom texts of each prompt in each language
 * (GET/PUT /api/v2/prompts/{prompt}/custom-text/{language}). A custom text
 * replaces the default of its language on the hosted pages. Only the prompts,
 * screens and keys Gatehouse renders, in the languages it has texts in, are
 * accepted; anything else is refused with 400 and changes nothing.
 */
import type { PromptSettings } from '../../domain/branding/branding.js';
import { putCustomText, readCustomText, readPromptSettings, updatePromptSettings } from '../../domain/branding/service.js';
import { customTextProblem, isLanguage, isPromptName, LANGUAGES, PROMPT_NAMES, type CustomTexts, type Language, type PromptName } from '../../domain/branding/texts.js';
import type { AppContext } from '../../domain/context.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';

function promptAndLanguage(prompt: string, language: string): { prompt: PromptName; language: Language } {
  if (!isPromptName(prompt)) throw managementErrors.badRequest(`Invalid prompt '${prompt}': the prompts with texts are ${PROMPT_NAMES.join(', ')}`, 'invalid_uri');
  if (!isLanguage(language)) throw managementErrors.badRequest(`Invalid language '${language}': the languages with texts are ${LANGUAGES.join(', ')}`, 'invalid_uri');
  return { prompt, language };
}

export class PromptService {
  constructor(private readonly ctx: AppContext) {}

  settings(tenant: Tenant): Promise<PromptSettings> {
    return readPromptSettings(this.ctx, tenant.id);
  }

  updateSettings(tenant: Tenant, body: Partial<Record<keyof PromptSettings, unknown>>): Promise<PromptSettings> {
    return updatePromptSettings(this.ctx, tenant.id, body);
  }

  customText(tenant: Tenant, prompt: string, language: string): Promise<CustomTexts> {
    const target = promptAndLanguage(prompt, language);
    return readCustomText(this.ctx, tenant.id, target.prompt, target.language);
  }

  async setCustomText(tenant: Tenant, prompt: string, language: string, body: unknown): Promise<CustomTexts> {
    const target = promptAndLanguage(prompt, language);
    const problem = customTextProblem(target.prompt, body);
    if (problem !== undefined) throw managementErrors.invalidBody(`Payload validation error: ${problem}.`);
    await putCustomText(this.ctx, tenant.id, target.prompt, target.language, body as CustomTexts);
    return body as CustomTexts;
  }
}
