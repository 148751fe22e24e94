/**
 * The tenant's prompt partials (GET/PUT /api/v2/prompts/{prompt}/partials):
 * pieces of Liquid markup the hosted pages insert at the service's entry
 * points of a screen's form. The body is the service's: screen → insertion
 * point → partial, e.g. `{"login": {"form-content-end": "<p>…</p>"}}`; a PUT
 * replaces every partial of the prompt, `{}` removes them (a screen given
 * as `null` has none).
 *
 * Choices where the wire notes record nothing:
 * - The service answers 400 "feature requires at least one custom domain"
 *   when the tenant has no custom domain. A Gatehouse tenant's pages are
 *   served from the tenant's own host, so partials need no custom domain;
 *   nor do they need a page template: they are part of the page's card
 *   (`{%- auth0:widget -%}`), with or without a template around it.
 * - A partial is at most MAX_PARTIAL_LENGTH characters, parsed by the page
 *   template's engine (no `include`/`render`/`layout`, bounded render time,
 *   memory and output) and may not carry the elements that would change
 *   what the page runs or where its form goes (FORBIDDEN_ELEMENTS): it adds
 *   markup, never a script, style, origin or second form. The page's CSP
 *   stays what it is (a `style=""` attribute or an inline handler does
 *   nothing under it).
 * - Fields a partial adds to a form (the service names them `ulp-…`) are
 *   posted with the form and ignored: the form's own fields are read by
 *   name, and no partial field reaches the user's profile.
 */
import { isoAt } from '../../platform/clock.js';
import { liquidProblem } from './page-template.js';
import type { UiSettingsContext } from './service.js';

/** The prompts that have partials (the document's enum) and the screens of each. */
export const PARTIAL_SCREENS: Readonly<Record<string, readonly string[]>> = {
  login: ['login'],
  'login-id': ['login-id'],
  'login-password': ['login-password'],
  'login-passwordless': ['login-passwordless-email-code', 'login-passwordless-sms-otp'],
  signup: ['signup'],
  'signup-id': ['signup-id'],
  'signup-password': ['signup-password'],
  'customized-consent': ['customized-consent'],
  passkeys: ['passkey-enrollment', 'passkey-enrollment-local'],
};
export const PARTIAL_PROMPTS = Object.keys(PARTIAL_SCREENS);

export const INSERTION_POINTS = ['form-content-start', 'form-content-end', 'form-footer-start', 'form-footer-end', 'secondary-actions-start', 'secondary-actions-end'] as const;
export type InsertionPoint = (typeof INSERTION_POINTS)[number];

/** The most characters one partial may have. */
export const MAX_PARTIAL_LENGTH = 10_000;

/** Elements a partial may not write: they would run code, style the page, read other origins, or post elsewhere. */
const FORBIDDEN_ELEMENTS = ['script', 'style', 'link', 'meta', 'base', 'form', 'iframe', 'frame', 'object', 'embed', 'template', 'svg', 'math'];
const FORBIDDEN = new RegExp(`<\\s*/?\\s*(${FORBIDDEN_ELEMENTS.join('|')})\\b`, 'i');

/** screen → insertion point → partial. */
export type PromptPartials = Record<string, Partial<Record<InsertionPoint, string>>>;

export function isPartialPrompt(prompt: string): boolean {
  return Object.hasOwn(PARTIAL_SCREENS, prompt);
}

/** Why `body` cannot be the partials of `prompt` (a message for the service's 400), or undefined. */
export function partialsProblem(prompt: string, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the partials are an object of screens';
  const screens = PARTIAL_SCREENS[prompt] ?? [];
  for (const [screen, points] of Object.entries(body)) {
    if (!screens.includes(screen)) return `'${screen}' is not a screen of the prompt '${prompt}' (its screens: ${screens.join(', ')})`;
    if (points === null) continue;
    if (typeof points !== 'object' || points === null || Array.isArray(points)) return `the partials of '${screen}' are an object of insertion points`;
    for (const [point, source] of Object.entries(points)) {
      if (!(INSERTION_POINTS as readonly string[]).includes(point)) return `'${point}' is not an insertion point (they are ${INSERTION_POINTS.join(', ')})`;
      if (typeof source !== 'string') return `the partial '${screen}.${point}' is not a string`;
      if (source.length > MAX_PARTIAL_LENGTH) return `the partial '${screen}.${point}' is longer than ${MAX_PARTIAL_LENGTH} characters`;
      const element = FORBIDDEN.exec(source);
      if (element) return `the partial '${screen}.${point}' may not contain a <${element[1]!.toLowerCase()}> element: partials add markup, never a script, style, frame or form`;
      const liquid = liquidProblem(source);
      if (liquid !== undefined) return `the partial '${screen}.${point}' is not valid Liquid: ${liquid}`;
    }
  }
  return undefined;
}

/** The partials of `prompt`, without the empty ones (`{}` when it has none). */
export async function readPartials(ctx: UiSettingsContext, tenantId: string, prompt: string): Promise<PromptPartials> {
  return ((await ctx.stores.uiSettings.get(tenantId, 'prompt_partials', prompt))?.value ?? {}) as PromptPartials;
}

/** Every prompt's partials: prompt → screen → point → partial (what the pages read, in one query). */
export async function allPartials(ctx: UiSettingsContext, tenantId: string): Promise<Record<string, PromptPartials>> {
  const out: Record<string, PromptPartials> = {};
  for (const row of await ctx.stores.uiSettings.list(tenantId, 'prompt_partials')) out[row.key] = row.value as PromptPartials;
  return out;
}

/** Replaces the partials of `prompt` (checked by partialsProblem first); empty strings and empty screens are dropped. */
export async function putPartials(ctx: UiSettingsContext, tenantId: string, prompt: string, body: Record<string, PromptPartials[string] | null>): Promise<PromptPartials> {
  const kept: PromptPartials = {};
  for (const [screen, points] of Object.entries(body)) {
    if (points === null) continue;
    const nonEmpty = Object.fromEntries(Object.entries(points).filter(([, source]) => source !== ''));
    if (Object.keys(nonEmpty).length > 0) kept[screen] = nonEmpty;
  }
  if (Object.keys(kept).length === 0) await ctx.stores.uiSettings.delete(tenantId, 'prompt_partials', prompt);
  else await ctx.stores.uiSettings.put({ tenant_id: tenantId, kind: 'prompt_partials', key: prompt, value: kept, updated_at: isoAt(ctx.now()) });
  return kept;
}
