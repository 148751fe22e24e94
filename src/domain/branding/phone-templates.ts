/**
 * The tenant's phone message templates (/api/v2/branding/phone/templates):
 * the text (and voice) of the codes Gatehouse sends by SMS, one template per
 * notification type. As in the service (what auth0-deploy-cli's
 * phoneTemplates handler relies on), the list always has every type: a type
 * the tenant has not created is listed with its default content and no `id`;
 * `POST` creates the tenant's template of a type (409 when it has one), which
 * then has an id for GET, PATCH, reset and DELETE (DELETE gives the type its
 * default back). Stored as the `phone_template` documents of the tenant's UI
 * settings, one per type, so a second create of a type is refused by the
 * primary key.
 *
 * The default texts are Gatehouse's (the service's are not recorded in the
 * wire notes): `otp_enroll` and `otp_verify` are the Guardian SMS factor's
 * default messages, so a tenant that created no template sees no change.
 */
import { randomBytes } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import type { UiSettingsContext } from './service.js';

export const PHONE_TEMPLATE_TYPES = ['otp_verify', 'otp_enroll', 'change_password', 'blocked_account', 'password_breach'] as const;
export type PhoneTemplateType = (typeof PHONE_TEMPLATE_TYPES)[number];

export interface PhoneTemplateContent {
  syntax?: string;
  from?: string;
  body: { text?: string; voice?: string };
}

export interface PhoneTemplate {
  id?: string;
  channel: 'phone';
  customizable: boolean;
  tenant: string;
  type: PhoneTemplateType;
  disabled: boolean;
  content: PhoneTemplateContent;
}

const DEFAULT_TEXT: Record<PhoneTemplateType, string> = {
  otp_enroll: '{{ code }} is your verification code for {{ friendly_name }}. Please enter this code to verify your enrollment.',
  otp_verify: '{{ code }} is your verification code for {{ friendly_name }}',
  change_password: '{{ code }} is your password change code for {{ friendly_name }}',
  blocked_account: 'We detected suspicious activity on your {{ friendly_name }} account and blocked it. Reset your password to unblock it.',
  password_breach: 'Your {{ friendly_name }} password was found in a data breach. Reset your password before you next log in.',
};

export function defaultContent(type: PhoneTemplateType): PhoneTemplateContent {
  return { syntax: 'liquid', body: { text: DEFAULT_TEXT[type], voice: DEFAULT_TEXT[type] } };
}

interface Stored {
  id: string;
  disabled: boolean;
  content: PhoneTemplateContent;
}

function newId(): string {
  return `tem_${randomBytes(16).toString('base64url').replace(/[-_]/g, '').slice(0, 22)}`;
}

function shown(tenant: string, type: PhoneTemplateType, stored: Stored | undefined): PhoneTemplate {
  if (!stored) return { channel: 'phone', customizable: true, tenant, type, disabled: false, content: defaultContent(type) };
  return { id: stored.id, channel: 'phone', customizable: true, tenant, type, disabled: stored.disabled, content: stored.content };
}

async function storedOf(ctx: UiSettingsContext, tenantId: string): Promise<Map<PhoneTemplateType, Stored>> {
  const rows = await ctx.stores.uiSettings.list(tenantId, 'phone_template');
  return new Map(rows.map((row) => [row.key as PhoneTemplateType, row.value as unknown as Stored]));
}

/** Every type, the tenant's template where it created one, the default (without an id) where not. */
export async function listPhoneTemplates(ctx: UiSettingsContext, tenantId: string, tenantName: string): Promise<PhoneTemplate[]> {
  const stored = await storedOf(ctx, tenantId);
  return PHONE_TEMPLATE_TYPES.map((type) => shown(tenantName, type, stored.get(type)));
}

export async function findPhoneTemplate(ctx: UiSettingsContext, tenantId: string, tenantName: string, id: string): Promise<PhoneTemplate | undefined> {
  for (const [type, stored] of await storedOf(ctx, tenantId)) if (stored.id === id) return shown(tenantName, type, stored);
  return undefined;
}

async function write(ctx: UiSettingsContext, tenantId: string, type: PhoneTemplateType, stored: Stored, onlyIfNew: boolean): Promise<boolean> {
  const row = { tenant_id: tenantId, kind: 'phone_template' as const, key: type, value: { ...stored }, updated_at: isoAt(ctx.now()) };
  if (onlyIfNew) return ctx.stores.uiSettings.insertNew(row);
  await ctx.stores.uiSettings.put(row);
  return true;
}

/** The tenant's new template of `type`, or undefined when it has one. Content members not given keep the default's. */
export async function createPhoneTemplate(
  ctx: UiSettingsContext,
  tenantId: string,
  tenantName: string,
  body: { type: PhoneTemplateType; disabled?: boolean; content?: Partial<PhoneTemplateContent> },
): Promise<PhoneTemplate | undefined> {
  const base = defaultContent(body.type);
  const content = { ...base, ...body.content, body: { ...base.body, ...body.content?.body } };
  const stored: Stored = { id: newId(), disabled: body.disabled ?? false, content };
  return (await write(ctx, tenantId, body.type, stored, true)) ? shown(tenantName, body.type, stored) : undefined;
}

export async function updatePhoneTemplate(
  ctx: UiSettingsContext,
  tenantId: string,
  tenantName: string,
  id: string,
  changes: { disabled?: boolean; content?: { from?: string; body?: { text?: string; voice?: string } } },
): Promise<PhoneTemplate | undefined> {
  const current = await findPhoneTemplate(ctx, tenantId, tenantName, id);
  if (!current) return undefined;
  const content = { ...current.content, ...changes.content, body: { ...current.content.body, ...changes.content?.body } };
  const stored: Stored = { id, disabled: changes.disabled ?? current.disabled, content };
  await write(ctx, tenantId, current.type, stored, false);
  return shown(tenantName, current.type, stored);
}

/** The template's content back to its type's default (it keeps its id). */
export async function resetPhoneTemplate(ctx: UiSettingsContext, tenantId: string, tenantName: string, id: string): Promise<PhoneTemplate | undefined> {
  const current = await findPhoneTemplate(ctx, tenantId, tenantName, id);
  if (!current) return undefined;
  const stored: Stored = { id, disabled: current.disabled, content: defaultContent(current.type) };
  await write(ctx, tenantId, current.type, stored, false);
  return shown(tenantName, current.type, stored);
}

export async function deletePhoneTemplate(ctx: UiSettingsContext, tenantId: string, tenantName: string, id: string): Promise<boolean> {
  const current = await findPhoneTemplate(ctx, tenantId, tenantName, id);
  if (!current) return false;
  return ctx.stores.uiSettings.delete(tenantId, 'phone_template', current.type);
}

/**
 * The variables a phone template's Liquid sees (the service's: `code`,
 * `friendly_name`, `tenant.friendly_name`, `message_type`, `locale`). The
 * document has one text per template, not one per language: a template
 * speaks the user's language by testing `locale`, the language of the
 * hosted page the code was asked from (`ui_locales`), e.g.
 * `{% if locale == "fr" %}Votre code : {{ code }}{% else %}Your code: {{ code }}{% endif %}`;
 * `locale` is empty for codes asked through the API.
 */
export function phoneTemplateVariables(friendlyName: string, code: string, locale?: string): Record<string, unknown> {
  return { code, friendly_name: friendlyName, tenant: { friendly_name: friendlyName }, message_type: 'sms', locale: locale ?? '' };
}

/** The text of `type` the tenant created and has not disabled, or undefined (the sender then uses its own default). */
export async function customPhoneText(ctx: { readonly stores: Pick<UiSettingsContext['stores'], 'uiSettings'> }, tenantId: string, type: PhoneTemplateType): Promise<{ text: string; from?: string } | undefined> {
  const row = await ctx.stores.uiSettings.get(tenantId, 'phone_template', type);
  const stored = row?.value as unknown as Stored | undefined;
  if (!stored || stored.disabled || !stored.content.body.text) return undefined;
  return { text: stored.content.body.text, ...(stored.content.from && { from: stored.content.from }) };
}
