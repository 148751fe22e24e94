/**
 * A screen in the service's advanced mode (ACUL, src/domain/branding/rendering.ts):
 * the page the design system renders, with the tenant's head tags (its
 * scripts and styles from the https origins it names) and
 * `window.universal_login_context`, the JSON of the request the tenant's
 * code draws the screen from. The body keeps the screen's form, which posts
 * to the same endpoint with the same `state` and CSRF token: the tenant's
 * code drives it (fills and submits it, or hides it and submits its own
 * values through it), and the server checks it as it checks any post.
 *
 * What holds whatever the tenant configured:
 * - the head tags are written from the allow-listed tags and attributes
 *   only, every value escaped; no tag carries inline content;
 * - the page's CSP gains exactly the origins of those tags, each in the
 *   directive of its kind (script-src for scripts and module preloads,
 *   style-src for stylesheets, font-src and img-src for preloaded fonts and
 *   images and icons), and the hash of the context script; nothing else
 *   (no connect-src, no 'unsafe-inline', form-action unchanged);
 * - the context holds what the page's configuration names of the request,
 *   built field by field from the request's facts (never a client secret, a
 *   session, a CSRF token or a hash), JSON escaped for a script element.
 */
import type { Branding } from '../../domain/branding/branding.js';
import type { RenderingFacts, ScreenRendering } from '../../domain/branding/rendering.js';
import type { Theme } from '../../domain/branding/theme.js';
import { cspHash, cspSourceOf, escapeHtml, Html } from './markup.js';

/** What the context reads of the page's UI (./html.ts PageUi). */
export interface AculUi {
  readonly language: string;
  readonly branding: Branding;
  readonly theme?: Theme;
  screenTexts(prompt: string, screen: string): Record<string, string>;
}

/** The CSP sources the head tags add, by directive. */
export interface AculSources {
  script: string[];
  style: string[];
  font: string[];
  img: string[];
}

const ATTRIBUTE_NAME = /^[a-z][a-z-]*$/;

function addSource(list: string[], url: unknown): void {
  if (typeof url !== 'string') return;
  const source = cspSourceOf(url);
  if (source !== undefined && source.startsWith('https://') && !list.includes(source)) list.push(source);
}

/** The tenant's head tags as markup, and the origins they load from. */
export function headTags(settings: ScreenRendering): { html: Html; sources: AculSources } {
  const sources: AculSources = { script: [], style: [], font: [], img: [] };
  let out = '';
  for (const { tag, attributes } of settings.head_tags) {
    if (tag !== 'script' && tag !== 'link' && tag !== 'meta') continue;
    const attrs = Object.entries(attributes)
      .filter(([name, value]) => ATTRIBUTE_NAME.test(name) && (value === true || typeof value === 'string'))
      .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeHtml(value as string)}"`))
      .join('');
    if (tag === 'script') {
      addSource(sources.script, attributes.src);
      out += `<script${attrs}></script>\n`;
    } else {
      if (tag === 'link') {
        const rel = attributes.rel;
        const as = attributes.as;
        if (rel === 'stylesheet' || (rel === 'preload' && as === 'style')) addSource(sources.style, attributes.href);
        else if (rel === 'modulepreload' || (rel === 'preload' && as === 'script')) addSource(sources.script, attributes.href);
        else if (rel === 'preload' && as === 'font') addSource(sources.font, attributes.href);
        else if (rel === 'icon' || (rel === 'preload' && as === 'image')) addSource(sources.img, attributes.href);
      }
      out += `<${tag}${attrs}>\n`;
    }
  }
  return { html: new Html(out), sources };
}

/** JSON that stays data inside a script element: no `</script>`, no `<!--`, no line separators that end a JS string. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const pick = (from: Readonly<Record<string, unknown>> | undefined, key: string) => (from !== undefined && Object.hasOwn(from, key) ? from[key] : undefined);

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  if (value === undefined) return;
  let at = target;
  for (const part of path.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
  // The last part is the tenant's metadata key: defined, never assigned, so `__proto__` is a key like any other.
  Object.defineProperty(at, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The value of `window.universal_login_context`: always the client's id and
 * name, the prompt and screen, the transaction's state and locale, and the
 * organization's id and name when the request names one; then each entry of
 * `context_configuration` that Gatehouse has a value for (the service's
 * names; `experiment`, `user.organizations`, `untrusted_data.submitted_form_data`
 * and `ext-` parameters have none and are left out).
 */
export function universalLoginContext(settings: ScreenRendering, ui: AculUi, prompt: string, screen: string, facts: RenderingFacts | undefined): Record<string, unknown> {
  const context: Record<string, unknown> = {
    prompt: { name: prompt },
    screen: { name: screen },
    transaction: { locale: ui.language, ...(facts?.state !== undefined && { state: facts.state }) },
  };
  if (facts) {
    context.client = { id: facts.client.id, name: facts.client.name };
    if (facts.organization) context.organization = { id: facts.organization.id, name: facts.organization.name };
  }
  for (const entry of settings.context_configuration) {
    const path = entry.split('.');
    const [head, second, third] = path;
    const key = path.at(-1)!;
    let value: unknown;
    switch (entry) {
      case 'branding.settings':
        value = ui.branding;
        break;
      case 'branding.themes.default':
        value = ui.theme;
        break;
      case 'client.logo_uri':
        value = facts?.client.logo_uri;
        break;
      case 'client.description':
        value = facts?.client.description;
        break;
      case 'organization.display_name':
        value = facts?.organization?.display_name;
        break;
      case 'organization.branding':
        value = facts?.organization?.branding;
        break;
      case 'screen.texts':
        value = ui.screenTexts(prompt, screen);
        break;
      case 'tenant.name':
        value = facts?.tenant.name;
        break;
      case 'tenant.friendly_name':
        value = facts?.tenant.friendly_name;
        break;
      case 'tenant.logo_url':
        value = ui.branding.logo_url;
        break;
      case 'tenant.enabled_locales':
        value = facts?.tenant.enabled_locales;
        break;
      case 'untrusted_data.authorization_params.login_hint':
      case 'untrusted_data.authorization_params.screen_hint':
      case 'untrusted_data.authorization_params.ui_locales':
        value = pick(facts?.authorizationParams, key);
        break;
      case 'transaction.custom_domain.domain':
        value = facts?.domain?.domain;
        break;
      default:
        if (head === 'client' && second === 'metadata') value = pick(facts?.client.metadata, key);
        else if (head === 'organization' && second === 'metadata') value = pick(facts?.organization?.metadata, key);
        else if (head === 'transaction' && third === 'domain_metadata') value = pick(facts?.domain?.metadata, key);
        else if (head === 'user' && second === 'user_metadata') value = pick(facts?.user?.user_metadata, key);
        else if (head === 'user' && second === 'app_metadata') value = pick(facts?.user?.app_metadata, key);
    }
    setPath(context, path, value);
  }
  return context;
}

/** The context script and its CSP hash. */
export function contextScript(context: Record<string, unknown>): { html: Html; hash: string } {
  const source = `window.universal_login_context = ${scriptJson(context)};`;
  return { html: new Html(`<script id="universal-login-context">${source}</script>\n`), hash: cspHash(source) };
}
