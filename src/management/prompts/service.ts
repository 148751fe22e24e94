/**
 * The prompts' settings (GET/PATCH /api/v2/prompts: `identifier_first` gives
 * the two-step login) and the custom texts of each prompt in each language
 * (GET/PUT /api/v2/prompts/{prompt}/custom-text/{language}). A custom text
 * replaces the default of its language on the hosted pages. Only the prompts,
 * screens and keys Gatehouse renders, in the languages it has texts in, are
 * accepted; anything else is refused with 400 and changes nothing.
 */
import type { PromptSettings } from '../../domain/branding/branding.js';
import { putCustomText, readCustomText, readPromptSettings, updatePromptSettings, type UiSettingsContext } from '../../domain/branding/service.js';
import { customTextProblem, isLanguage, isPromptName, LANGUAGES, PROMPT_NAMES, type CustomTexts, type Language, type PromptName } from '../../domain/branding/texts.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';

/**
 * The service's prompts and languages (the OpenAPI document's
 * PromptGroupNameEnum and PromptLanguageEnum). Reading the custom texts of
 * one Gatehouse does not render answers `{}`, as the service answers a
 * prompt with no custom text, so that tools reading every prompt in every
 * enabled locale (auth0-deploy-cli's export) go on; setting one is refused.
 */
const SERVICE_PROMPTS: ReadonlySet<string> = new Set(
  'login,login-id,login-password,login-passwordless,login-email-verification,signup,signup-id,signup-password,phone-identifier-enrollment,phone-identifier-challenge,email-identifier-challenge,reset-password,custom-form,consent,customized-consent,logout,mfa-push,mfa-otp,mfa-voice,mfa-phone,mfa-webauthn,mfa-sms,mfa-email,mfa-recovery-code,mfa,status,device-flow,email-verification,email-otp-challenge,organizations,invitation,common,passkeys,captcha,brute-force-protection,async-approval-flow,confirmation'.split(','),
);
const SERVICE_LANGUAGES: ReadonlySet<string> = new Set(
  'am,ar,ar-EG,ar-SA,az,bg,bn,bs,ca-ES,cnr,cs,cy,da,de,el,en,en-CA,es,es-419,es-AR,es-MX,et,eu-ES,fa,fi,fr,fr-CA,fr-FR,gl-ES,gu,he,hi,hr,hu,hy,id,is,it,ja,ka,kk,kn,ko,lt,lv,mk,ml,mn,mr,ms,my,nb,nl,nn,no,pa,pl,pt,pt-BR,pt-PT,ro,ru,sk,sl,so,sq,sr,sv,sw,ta,te,th,tl,tr,uk,ur,vi,zgh,zh-CN,zh-HK,zh-TW'.split(','),
);

function promptAndLanguage(prompt: string, language: string): { prompt: PromptName; language: Language } {
  if (!isPromptName(prompt)) throw managementErrors.badRequest(`Invalid prompt '${prompt}': the prompts with texts are ${PROMPT_NAMES.join(', ')}`, 'invalid_uri');
  if (!isLanguage(language)) throw managementErrors.badRequest(`Invalid language '${language}': the languages with texts are ${LANGUAGES.join(', ')}`, 'invalid_uri');
  return { prompt, language };
}

export class PromptService {
  constructor(private readonly ctx: UiSettingsContext) {}

  settings(tenant: Tenant): Promise<PromptSettings> {
    return readPromptSettings(this.ctx, tenant.id);
  }

  updateSettings(tenant: Tenant, body: Partial<Record<keyof PromptSettings, unknown>>): Promise<PromptSettings> {
    return updatePromptSettings(this.ctx, tenant.id, body);
  }

  async customText(tenant: Tenant, prompt: string, language: string): Promise<CustomTexts> {
    const known = SERVICE_PROMPTS.has(prompt) && SERVICE_LANGUAGES.has(language);
    if (known && !(isPromptName(prompt) && isLanguage(language))) return {};
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
