/**
 * The render settings of the service's advanced customisation (ACUL) per
 * prompt and screen (GET/PATCH /api/v2/prompts/rendering and
 * /api/v2/prompts/{prompt}/screen/{screen}/rendering): `rendering_mode`
 * (`standard`, the design system's page; `advanced`, the tenant's own
 * JavaScript and styles over the same form), `context_configuration` (what
 * of the request the page hands the tenant's code in
 * `window.universal_login_context`), `head_tags`, `default_head_tags_disabled`,
 * `use_page_template` and `filters` (which requests get advanced mode).
 * Stored as the `prompt_rendering` documents of the tenant's UI settings,
 * one per `<prompt>/<screen>`; the hosted pages read them
 * (src/authentication/pages/acul.ts).
 *
 * Choices where the service's document says nothing (docs/branding.md):
 * - Every tenant has the feature (no 402/403 "not enabled"). `advanced` is
 *   accepted only for the screens Gatehouse renders with a screen name
 *   (ADVANCED_SCREENS); the others answer the service's 403 "This screen is
 *   not available in Advanced Customizations". `standard` settings are
 *   accepted for every screen of the document.
 * - Head tags: `script` (an https `src`, no content: no inline script),
 *   `link` (an https `href`, `rel` stylesheet, preload, modulepreload or
 *   icon) and `meta` (`name` and `content` only); attributes from a list per
 *   tag (never `on…` handlers or `style`), at most 10 per tag (the
 *   document's limit), values strings of at most MAX_ATTRIBUTE_LENGTH or
 *   `true`; at most MAX_HEAD_TAGS tags. The `content` member is refused:
 *   markup between the tags would be inline script or style.
 * - Filters: `includes_any` (the default) gives advanced mode to a request
 *   whose client, organization or custom domain matches any entry (by id, or
 *   by its one metadata key and value); `excludes_any` to every request but
 *   those; none: every request. At most MAX_FILTER_ENTRIES entries a list.
 */
import { isoAt } from '../../platform/clock.js';
import type { UiSettingsContext } from './service.js';

/** The service's prompts and their screens (PromptGroupNameEnum, ScreenGroupNameEnum of its document). */
export const PROMPT_SCREENS: Readonly<Record<string, readonly string[]>> = {
  login: ['login'],
  'login-id': ['login-id'],
  'login-password': ['login-password'],
  'login-passwordless': ['login-passwordless-email-code', 'login-passwordless-email-link', 'login-passwordless-sms-otp'],
  'login-email-verification': ['login-email-verification'],
  signup: ['signup'],
  'signup-id': ['signup-id'],
  'signup-password': ['signup-password'],
  'phone-identifier-enrollment': ['phone-identifier-enrollment'],
  'phone-identifier-challenge': ['phone-identifier-challenge'],
  'email-identifier-challenge': ['email-identifier-challenge'],
  'reset-password': [
    'reset-password-request',
    'reset-password-email',
    'reset-password',
    'reset-password-success',
    'reset-password-error',
    'reset-password-mfa-email-challenge',
    'reset-password-mfa-otp-challenge',
    'reset-password-mfa-phone-challenge',
    'reset-password-mfa-push-challenge-push',
    'reset-password-mfa-recovery-code-challenge',
    'reset-password-mfa-sms-challenge',
    'reset-password-mfa-voice-challenge',
    'reset-password-mfa-webauthn-platform-challenge',
    'reset-password-mfa-webauthn-roaming-challenge',
  ],
  'custom-form': ['custom-form'],
  consent: ['consent'],
  'customized-consent': ['customized-consent'],
  logout: ['logout', 'logout-complete', 'logout-aborted'],
  'mfa-push': ['mfa-push-welcome', 'mfa-push-enrollment-qr', 'mfa-push-enrollment-code', 'mfa-push-success', 'mfa-push-challenge-push', 'mfa-push-list'],
  'mfa-otp': ['mfa-otp-enrollment-qr', 'mfa-otp-enrollment-code', 'mfa-otp-challenge'],
  'mfa-voice': ['mfa-voice-enrollment', 'mfa-voice-challenge'],
  'mfa-phone': ['mfa-phone-challenge', 'mfa-phone-enrollment'],
  'mfa-webauthn': [
    'mfa-webauthn-platform-enrollment',
    'mfa-webauthn-roaming-enrollment',
    'mfa-webauthn-platform-challenge',
    'mfa-webauthn-roaming-challenge',
    'mfa-webauthn-change-key-nickname',
    'mfa-webauthn-enrollment-success',
    'mfa-webauthn-error',
    'mfa-webauthn-not-available-error',
  ],
  'mfa-sms': ['mfa-country-codes', 'mfa-sms-enrollment', 'mfa-sms-challenge', 'mfa-sms-list'],
  'mfa-email': ['mfa-email-challenge', 'mfa-email-list'],
  'mfa-recovery-code': ['mfa-recovery-code-enrollment', 'mfa-recovery-code-challenge-new-code', 'mfa-recovery-code-challenge'],
  mfa: ['mfa-detect-browser-capabilities', 'mfa-enroll-result', 'mfa-login-options', 'mfa-begin-enroll-options'],
  status: ['status'],
  'device-flow': ['device-code-activation', 'device-code-activation-allowed', 'device-code-activation-denied', 'device-code-confirmation'],
  'email-verification': ['email-verification-result'],
  'email-otp-challenge': ['email-otp-challenge'],
  organizations: ['organization-selection', 'organization-picker', 'pre-login-organization-picker'],
  invitation: ['accept-invitation'],
  common: ['redeem-ticket'],
  passkeys: ['passkey-enrollment', 'passkey-enrollment-local'],
  captcha: ['interstitial-captcha'],
  'brute-force-protection': ['brute-force-protection-unblock', 'brute-force-protection-unblock-success', 'brute-force-protection-unblock-failure'],
  'async-approval-flow': ['async-approval-error', 'async-approval-accepted', 'async-approval-denied', 'async-approval-wrong-user'],
  confirmation: ['confirmation'],
};
export const RENDERING_PROMPTS = Object.keys(PROMPT_SCREENS);
export const RENDERING_SCREENS = [...new Set(Object.values(PROMPT_SCREENS).flat())];

/** The screens whose pages Gatehouse renders in advanced mode (each names its prompt and screen: src/authentication/pages/authorize.ts). */
export const ADVANCED_SCREENS: ReadonlySet<string> = new Set([
  'login/login',
  'login-id/login-id',
  'login-password/login-password',
  'signup/signup',
  'reset-password/reset-password-request',
  'login-passwordless/login-passwordless-email-code',
  'login-passwordless/login-passwordless-sms-otp',
  'consent/consent',
]);

/** The static entries of `context_configuration` (AculContextEnum). */
export const CONTEXT_ENTRIES = [
  'branding.settings',
  'branding.themes.default',
  'client.logo_uri',
  'client.description',
  'organization.display_name',
  'organization.branding',
  'screen.texts',
  'tenant.name',
  'tenant.friendly_name',
  'tenant.logo_url',
  'tenant.enabled_locales',
  'untrusted_data.submitted_form_data',
  'untrusted_data.authorization_params.login_hint',
  'untrusted_data.authorization_params.screen_hint',
  'untrusted_data.authorization_params.ui_locales',
  'user.organizations',
  'transaction.custom_domain.domain',
  'experiment',
] as const;

/** The dynamic entries (AculContextConfigurationItem's patterns): a metadata key or an `ext-` authorization parameter. */
const DYNAMIC_ENTRIES = [
  /^client\.metadata\.[^.]+$/,
  /^organization\.metadata\.[^.]+$/,
  /^transaction\.custom_domain\.domain_metadata\.[^.]+$/,
  /^user\.user_metadata\.[^.]+$/,
  /^user\.app_metadata\.[^.]+$/,
  /^untrusted_data\.authorization_params\.ext-[^.]+$/,
];

export const MAX_HEAD_TAGS = 20;
export const MAX_ATTRIBUTES = 10;
export const MAX_ATTRIBUTE_LENGTH = 2048;
export const MAX_CONTEXT_ENTRIES = 50;
export const MAX_FILTER_ENTRIES = 25;
export const MAX_BULK_CONFIGS = 100;

/**
 * The attributes each head tag may carry: never an event handler, `style`,
 * anything that names where a form goes, or `referrerpolicy` (the page's
 * URL carries the transaction; it is sent to no origin).
 */
const TAG_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  script: ['src', 'type', 'defer', 'async', 'integrity', 'crossorigin', 'id', 'nomodule'],
  link: ['rel', 'href', 'as', 'type', 'integrity', 'crossorigin', 'media', 'sizes', 'id'],
  meta: ['name', 'content'],
};
const LINK_RELS = ['stylesheet', 'preload', 'modulepreload', 'icon'];
const PRELOAD_AS = ['script', 'style', 'font', 'image'];
const SCRIPT_TYPES = ['module', 'text/javascript', 'application/javascript'];
/** `meta` names that would change what the page does (its referrer policy, a refresh, its CSP) are not names a tag may give. */
const META_NAMES = /^[a-z][a-z0-9_.:-]{0,63}$/i;
const FORBIDDEN_META_NAMES = ['referrer', 'viewport', 'color-scheme'];

export type AttributeValue = string | boolean;
export interface HeadTag {
  tag: 'script' | 'link' | 'meta';
  attributes: Record<string, AttributeValue>;
}
export interface EntityFilter {
  id?: string;
  metadata?: Record<string, string>;
}
export interface RenderingFilters {
  match_type?: 'includes_any' | 'excludes_any';
  clients?: EntityFilter[];
  organizations?: EntityFilter[];
  domains?: EntityFilter[];
}

/** The settings of one screen, as the service answers them. */
export interface ScreenRendering {
  rendering_mode: 'standard' | 'advanced';
  context_configuration: string[];
  default_head_tags_disabled: boolean;
  use_page_template: boolean;
  head_tags: HeadTag[];
  filters: RenderingFilters | null;
}
export interface StoredRendering extends ScreenRendering {
  prompt: string;
  screen: string;
}

export const DEFAULT_RENDERING: ScreenRendering = {
  rendering_mode: 'standard',
  context_configuration: [],
  default_head_tags_disabled: false,
  use_page_template: false,
  head_tags: [],
  filters: null,
};

export function isScreenOf(prompt: string, screen: string): boolean {
  return Object.hasOwn(PROMPT_SCREENS, prompt) && (PROMPT_SCREENS[prompt]?.includes(screen) ?? false);
}

/** Why `url` cannot be loaded by a head tag (https only, no credentials), or undefined. */
function urlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.protocol !== 'https:') return 'must be an https URL';
  if (parsed.username !== '' || parsed.password !== '') return 'may not carry credentials';
  return undefined;
}

/** Why `tag` (one of `head_tags`, at index `i`) cannot be stored, or undefined. */
function headTagProblem(tag: unknown, i: number): string | undefined {
  const at = `head_tags[${i}]`;
  if (typeof tag !== 'object' || tag === null || Array.isArray(tag)) return `${at} is not an object`;
  const { tag: name, attributes, content, ...rest } = tag as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return `${at} has unknown members (${Object.keys(rest).join(', ')}): a head tag has tag and attributes`;
  if (typeof name !== 'string' || !Object.hasOwn(TAG_ATTRIBUTES, name)) return `${at}.tag must be one of ${Object.keys(TAG_ATTRIBUTES).join(', ')} (Gatehouse renders no other head tag)`;
  if (content !== undefined && content !== null && content !== '') return `${at}.content is not accepted: a head tag loads from an https origin, never inline script or style`;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return `${at}.attributes is required (an object)`;
  const entries = Object.entries(attributes as Record<string, unknown>);
  if (entries.length > MAX_ATTRIBUTES) return `${at}.attributes has more than ${MAX_ATTRIBUTES} attributes`;
  const allowed = TAG_ATTRIBUTES[name]!;
  for (const [attribute, value] of entries) {
    if (!allowed.includes(attribute)) return `${at}.attributes.${attribute} is not an attribute a <${name}> head tag may have (${allowed.join(', ')})`;
    if (typeof value === 'boolean') {
      if (value !== true) return `${at}.attributes.${attribute} is false: leave the attribute out instead`;
      continue;
    }
    if (typeof value !== 'string') return `${at}.attributes.${attribute} must be a string or true`;
    if (value.length > MAX_ATTRIBUTE_LENGTH) return `${at}.attributes.${attribute} is longer than ${MAX_ATTRIBUTE_LENGTH} characters`;
    if (/[\u0000-\u001f]/.test(value)) return `${at}.attributes.${attribute} contains control characters`;
  }
  const attrs = attributes as Record<string, unknown>;
  const url = name === 'script' ? attrs.src : name === 'link' ? attrs.href : undefined;
  if (name !== 'meta') {
    const key = name === 'script' ? 'src' : 'href';
    if (typeof url !== 'string') return `${at}.attributes.${key} is required: a <${name}> head tag loads from an https origin`;
    const problem = urlProblem(url);
    if (problem) return `${at}.attributes.${key} ${problem}`;
  }
  if (name === 'script' && attrs.type !== undefined && !SCRIPT_TYPES.includes(String(attrs.type))) return `${at}.attributes.type must be one of ${SCRIPT_TYPES.join(', ')}`;
  if (name === 'link') {
    if (typeof attrs.rel !== 'string' || !LINK_RELS.includes(attrs.rel)) return `${at}.attributes.rel must be one of ${LINK_RELS.join(', ')}`;
    if (attrs.rel === 'preload' && (typeof attrs.as !== 'string' || !PRELOAD_AS.includes(attrs.as))) return `${at}.attributes.as must be one of ${PRELOAD_AS.join(', ')} for a preload`;
  }
  if (name === 'meta') {
    if (typeof attrs.name !== 'string' || !META_NAMES.test(attrs.name) || FORBIDDEN_META_NAMES.includes(attrs.name.toLowerCase())) return `${at}.attributes.name must be a meta name other than ${FORBIDDEN_META_NAMES.join(', ')}`;
    if (typeof attrs.content !== 'string') return `${at}.attributes.content is required (a string)`;
  }
  return undefined;
}

function filterListProblem(list: unknown, member: string): string | undefined {
  if (!Array.isArray(list)) return `filters.${member} must be an array`;
  if (list.length > MAX_FILTER_ENTRIES) return `filters.${member} has more than ${MAX_FILTER_ENTRIES} entries`;
  for (const [i, entry] of list.entries()) {
    const at = `filters.${member}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `${at} is not an object`;
    const keys = Object.keys(entry);
    if (keys.length !== 1 || (keys[0] !== 'id' && keys[0] !== 'metadata')) return `${at} must have exactly one of id or metadata`;
    const { id, metadata } = entry as Record<string, unknown>;
    if (id !== undefined && (typeof id !== 'string' || id === '' || id.length > 255)) return `${at}.id must be a non-empty string`;
    if (metadata !== undefined) {
      if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return `${at}.metadata must be an object`;
      const pairs = Object.entries(metadata);
      if (pairs.length !== 1) return `${at}.metadata must have exactly one key`;
      const [key, value] = pairs[0]!;
      if (key.length > 255 || typeof value !== 'string' || value.length > 255) return `${at}.metadata is one key and a string value of at most 255 characters`;
    }
  }
  return undefined;
}

/** Why `changes` (the members of UpdateAculRequestContent) cannot apply to `prompt`/`screen`, or undefined. */
export function renderingProblem(changes: Record<string, unknown>): string | undefined {
  const { context_configuration: context, head_tags: tags, filters } = changes;
  if (Array.isArray(context)) {
    if (context.length > MAX_CONTEXT_ENTRIES) return `context_configuration has more than ${MAX_CONTEXT_ENTRIES} entries`;
    for (const entry of context) {
      if (typeof entry !== 'string') return 'context_configuration entries are strings';
      if (!(CONTEXT_ENTRIES as readonly string[]).includes(entry) && !DYNAMIC_ENTRIES.some((p) => p.test(entry) && entry.length <= 255))
        return `'${entry}' is not a context_configuration entry (the document's names, or client.metadata.<key>, organization.metadata.<key>, transaction.custom_domain.domain_metadata.<key>, user.user_metadata.<key>, user.app_metadata.<key>, untrusted_data.authorization_params.ext-<key>)`;
    }
  }
  if (Array.isArray(tags)) {
    if (tags.length > MAX_HEAD_TAGS) return `head_tags has more than ${MAX_HEAD_TAGS} tags`;
    for (const [i, tag] of tags.entries()) {
      const problem = headTagProblem(tag, i);
      if (problem) return problem;
    }
  }
  if (filters !== undefined && filters !== null) {
    if (typeof filters !== 'object' || Array.isArray(filters)) return 'filters must be an object';
    for (const member of ['clients', 'organizations', 'domains'] as const) {
      const list = (filters as Record<string, unknown>)[member];
      if (list === undefined) continue;
      const problem = filterListProblem(list, member);
      if (problem) return problem;
    }
  }
  return undefined;
}

const keyOf = (prompt: string, screen: string) => `${prompt}/${screen}`;

function normalized(value: Record<string, unknown> | undefined): ScreenRendering {
  return { ...DEFAULT_RENDERING, ...(value as Partial<ScreenRendering> | undefined) };
}

/** The settings of a screen: what was stored, the defaults where nothing was. */
export async function readRendering(ctx: UiSettingsContext, tenantId: string, prompt: string, screen: string): Promise<ScreenRendering> {
  return normalized((await ctx.stores.uiSettings.get(tenantId, 'prompt_rendering', keyOf(prompt, screen)))?.value);
}

/** Every screen that has settings, in prompt/screen order. */
export async function listRendering(ctx: UiSettingsContext, tenantId: string): Promise<StoredRendering[]> {
  return (await ctx.stores.uiSettings.list(tenantId, 'prompt_rendering')).map((row) => {
    const [prompt = '', screen = ''] = row.key.split('/');
    return { prompt, screen, ...normalized(row.value) };
  });
}

/**
 * Applies `changes` (checked by renderingProblem) to the screen's settings:
 * a member given replaces the stored one, `null` puts back its default.
 */
export function applyRendering(current: ScreenRendering, changes: Record<string, unknown>): ScreenRendering {
  const next: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    next[name] = value === null ? DEFAULT_RENDERING[name as keyof ScreenRendering] : value;
  }
  const out = next as unknown as ScreenRendering;
  return { ...out, head_tags: out.head_tags.map(({ tag, attributes }) => ({ tag, attributes })) };
}

export async function writeRendering(ctx: UiSettingsContext, tenantId: string, prompt: string, screen: string, settings: ScreenRendering): Promise<void> {
  await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'prompt_rendering', key: keyOf(prompt, screen), value: settings as unknown as Record<string, unknown>, updated_at: isoAt(ctx.now()) });
}

// ---------------------------------------------------------------------------
// Which requests a screen's advanced mode applies to

/** What of a request the filters and the context read (the hosted pages gather it: src/authentication/interaction/policy.ts). */
export interface RenderingFacts {
  tenant: { name: string; friendly_name?: string; enabled_locales?: readonly string[] };
  client: { id: string; name: string; logo_uri?: string; description?: string; metadata: Readonly<Record<string, string>> };
  organization?: { id: string; name: string; display_name?: string; branding?: unknown; metadata: Readonly<Record<string, string>> };
  /** The custom domain the request came through, if it did. */
  domain?: { id: string; domain: string; metadata: Readonly<Record<string, string>> };
  user?: { user_metadata: Readonly<Record<string, unknown>>; app_metadata: Readonly<Record<string, unknown>> };
  authorizationParams: { login_hint?: string; screen_hint?: string; ui_locales?: string };
  /** The transaction's state, the forms' `state` field. */
  state?: string;
}

function entityMatches(filters: readonly EntityFilter[] | undefined, entity: { id: string; metadata: Readonly<Record<string, string>> } | undefined): boolean {
  if (!filters || !entity) return false;
  return filters.some((f) => {
    if (f.id !== undefined) return f.id === entity.id;
    const [pair] = Object.entries(f.metadata ?? {});
    return pair !== undefined && Object.hasOwn(entity.metadata, pair[0]) && entity.metadata[pair[0]] === pair[1];
  });
}

/** Whether the screen's advanced mode applies to a request with these facts (the module comment says how filters match). */
export function advancedApplies(settings: ScreenRendering, facts: RenderingFacts | undefined): boolean {
  if (settings.rendering_mode !== 'advanced') return false;
  const filters = settings.filters;
  const lists = filters ? [filters.clients, filters.organizations, filters.domains].filter((l) => l !== undefined && l.length > 0) : [];
  if (!filters || lists.length === 0) return true;
  if (!facts) return filters.match_type === 'excludes_any';
  const matched = entityMatches(filters.clients, facts.client) || entityMatches(filters.organizations, facts.organization) || entityMatches(filters.domains, facts.domain);
  return filters.match_type === 'excludes_any' ? !matched : matched;
}
