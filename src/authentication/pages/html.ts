/**
 * The hosted pages' document: the design system around a page's body, the
 * tenant's look, template and partials, the advanced mode of a screen
 * (./acul.ts), and the headers every page is sent with. The markup helpers
 * (./markup.ts) are re-exported here.
 */
import type { FastifyReply } from 'fastify';
import type { Branding } from '../../domain/branding/branding.js';
import type { Theme } from '../../domain/branding/theme.js';
import { renderPageTemplate, renderPartial } from '../../domain/branding/page-template.js';
import { advancedApplies, type RenderingFacts, type StoredRendering } from '../../domain/branding/rendering.js';
import { contextScript, headTags, universalLoginContext } from './acul.js';
import type { InsertionPoint, PromptPartials } from '../../domain/branding/partials.js';
import { CATALOGS, type CustomTexts, type Language, type PromptName, type ScreenName, type TextKey } from '../../domain/branding/texts.js';
import { PASSWORD_TOGGLE_SCRIPT, PASSWORD_TOGGLE_START } from './password-toggle.js';
import { PUSH_WAIT_SCRIPT, PUSH_WAIT_START } from './push-wait.js';
import { WEBAUTHN_FORM_START, WEBAUTHN_SCRIPT } from './webauthn-form.js';
import { BASE_STYLE, brandingWithTheme, tenantStyle } from './theme.js';

export { Html, cspHash, cspSourceOf, escapeHtml, html } from './markup.js';
import { Html, cspHash, cspSourceOf, escapeHtml, html } from './markup.js';

/** The CSP of pages that are not hosted pages in the design system (form_post, web_message): inline styles only. */
export const PAGE_CSP = "default-src 'none'; form-action 'self'; style-src 'unsafe-inline'";

const BARE_STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;line-height:1.5}`;

/**
 * A bare document for the pages that only carry a response onwards (form_post,
 * web_message, the SAML logout chain): no branding, their own CSP.
 */
export function bareDocument(title: string, body: Html): Html {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new Html(BARE_STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Sends HTML with the headers of every page (see sendPage) under its own Content-Security-Policy. */
export function sendHtml(reply: FastifyReply, status: number, csp: string, content: Html): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', csp)
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('Cache-Control', 'no-store')
    .send(content.value);
}

// ---------------------------------------------------------------------------
// The hosted pages: one document, the tenant's look and language

/** What a hosted page is rendered with: its language and texts, the tenant's branding, support contact and login settings. */
export interface PageUi {
  readonly language: Language;
  readonly branding: Branding;
  /** The tenant's theme (POST /api/v2/branding/themes), when it has one: its palette, borders, fonts and widget replace the branding's look. */
  readonly theme?: Theme;
  /** The tenant's page template (PUT /api/v2/branding/templates/universal-login), when it has one. */
  readonly pageTemplate?: string;
  /** The tenant's prompt partials (PUT /api/v2/prompts/{prompt}/partials): prompt → screen → insertion point → Liquid. */
  readonly partials?: Readonly<Record<string, PromptPartials>>;
  /** The screens in advanced mode (PATCH /api/v2/prompts/{prompt}/screen/{screen}/rendering), by `<prompt>/<screen>`. */
  readonly rendering?: ReadonlyMap<string, StoredRendering>;
  /** The name shown under the logo (the tenant's friendly name, else its name). */
  readonly companyName: string;
  readonly support: { url?: string; email?: string };
  readonly identifierFirst: boolean;
  /** A text of the catalogue (or the tenant's custom text), its variables filled in: plain text. */
  text<P extends PromptName, S extends ScreenName<P>>(prompt: P, screen: S, key: TextKey<P, S>, vars?: Readonly<Record<string, string>>): string;
  /** The same as markup: the text escaped, its variables in bold. */
  rich<P extends PromptName, S extends ScreenName<P>>(prompt: P, screen: S, key: TextKey<P, S>, vars?: Readonly<Record<string, string>>): Html;
  /** Every text of a screen (the tenant's custom texts over the catalogue), variables unfilled: the context's `screen.texts`. */
  screenTexts(prompt: string, screen: string): Record<string, string>;
  /** The page's variables (`clientName`…). */
  readonly vars: Readonly<Record<string, string>>;
  /** The same UI with variables every text of the page may use (`${clientName}` in a custom button text). */
  withVars(vars: Readonly<Record<string, string>>): PageUi;
}

/** A value written once per language: the value, or how to make it from the page's UI. */
export type Localized<T> = T | ((ui: PageUi) => T);

export function localize<T>(value: Localized<T>, ui: PageUi): T {
  return typeof value === 'function' ? (value as (ui: PageUi) => T)(ui) : value;
}

/** A hosted page before it is rendered: its title and body, in whatever language the request gets. */
export class PageDocument {
  constructor(
    readonly title: Localized<string>,
    readonly body: Localized<Html>,
    /** Variables any text of the page may use (the application's name), custom texts included. */
    readonly vars: Readonly<Record<string, string>> = {},
    /** The service's name of the prompt the page belongs to (`login`, `signup`…), for the page template's `prompt.name`. */
    readonly prompt?: string,
    /** The service's name of the screen (`login-id`…): a screen that has one may be rendered in advanced mode (./acul.ts). */
    readonly screen?: string,
    /** Third-party origins the page embeds (a CAPTCHA widget's), by CSP directive: added to its CSP, and only these. */
    readonly embeds?: PageEmbeds,
  ) {}
}

/** Origins a page's third-party widget needs, by CSP directive. */
export interface PageEmbeds {
  script: readonly string[];
  frame: readonly string[];
  connect: readonly string[];
  style: readonly string[];
  worker: readonly string[];
}

/** `content` with `embeds` (its widget's origins) added to what its CSP allows. */
export function withEmbeds(content: PageDocument, embeds: PageEmbeds | undefined): PageDocument {
  return embeds === undefined ? content : new PageDocument(content.title, content.body, content.vars, content.prompt, content.screen, embeds);
}

/** A hosted page: rendered by sendPage in the design system, with the tenant's branding and the request's language. */
export function page(
  title: Localized<string>,
  body: Localized<Html>,
  vars: Readonly<Record<string, string>> = {},
  prompt?: string,
  screen?: string,
): PageDocument {
  return new PageDocument(title, body, vars, prompt, screen);
}

const VARIABLE = /\$\{([A-Za-z]+)\}/g;

/** The page UI of a language, the tenant's custom texts (prompt → screen → key → text) over the catalogue. */
export function pageUi(options: {
  language: Language;
  custom?: Readonly<Record<string, CustomTexts>>;
  branding?: Branding;
  theme?: Theme;
  pageTemplate?: string;
  partials?: Readonly<Record<string, PromptPartials>>;
  rendering?: ReadonlyMap<string, StoredRendering>;
  companyName?: string;
  support?: { url?: string; email?: string };
  identifierFirst?: boolean;
  vars?: Readonly<Record<string, string>>;
}): PageUi {
  const catalog = CATALOGS[options.language] as unknown as Record<string, Record<string, Record<string, string>>>;
  const english = CATALOGS.en as unknown as Record<string, Record<string, Record<string, string>>>;
  const raw = (prompt: string, screen: string, key: string): string =>
    options.custom?.[prompt]?.[screen]?.[key] ?? catalog[prompt]?.[screen]?.[key] ?? english[prompt]?.[screen]?.[key] ?? key;
  const companyName = options.companyName ?? '';
  const pageVars: Readonly<Record<string, string>> = { companyName, ...options.vars };
  return {
    language: options.language,
    branding: options.branding ?? {},
    ...(options.theme && { theme: options.theme }),
    ...(options.pageTemplate !== undefined && { pageTemplate: options.pageTemplate }),
    ...(options.partials && { partials: options.partials }),
    ...(options.rendering && { rendering: options.rendering }),
    companyName,
    support: options.support ?? {},
    identifierFirst: options.identifierFirst ?? false,
    vars: options.vars ?? {},
    screenTexts: (prompt, screen) => ({ ...english[prompt]?.[screen], ...catalog[prompt]?.[screen], ...options.custom?.[prompt]?.[screen] }),
    withVars: (vars) => pageUi({ ...options, vars: { ...options.vars, ...vars } }),
    text: (prompt, screen, key, vars = {}) => raw(prompt, screen, key).replace(VARIABLE, (whole, name: string) => vars[name] ?? pageVars[name] ?? whole),
    rich: (prompt, screen, key, vars = {}) => {
      const text = raw(prompt, screen, key);
      let out = '';
      let last = 0;
      for (const match of text.matchAll(VARIABLE)) {
        out += escapeHtml(text.slice(last, match.index));
        const value = vars[match[1]!] ?? pageVars[match[1]!];
        out += value === undefined ? escapeHtml(match[0]) : `<strong>${escapeHtml(value)}</strong>`;
        last = match.index + match[0].length;
      }
      return new Html(out + escapeHtml(text.slice(last)));
    },
  };
}

/** The UI of a request without tenant settings: English, the default look. */
export const DEFAULT_UI = pageUi({ language: 'en' });

declare module 'fastify' {
  interface FastifyRequest {
    /** Loads the hosted pages' UI of this request (set on the Authentication API's requests by ../page-ui.ts). */
    pageUi?: () => Promise<PageUi>;
    /** The `ui_locales` of the authorization request a page belongs to (set by the interaction steps' pages). */
    uiLocales?: string;
    /** What the render settings' filters and context read of the transaction a page belongs to (set by the interaction steps' pages). */
    renderingFacts?: () => Promise<RenderingFacts>;
  }
}


const BASE_STYLE_HASH = cspHash(BASE_STYLE);
/** The password fields' "Show password" script (./password-toggle.ts), one of the two scripts a hosted page may run. */
export const PASSWORD_TOGGLE_HASH = cspHash(PASSWORD_TOGGLE_SCRIPT);
/** The push waiting page's script (./push-wait.ts), the other one. */
export const PUSH_WAIT_HASH = cspHash(PUSH_WAIT_SCRIPT);
/** The WebAuthn forms' script (./webauthn-form.ts). */
export const WEBAUTHN_HASH = cspHash(WEBAUTHN_SCRIPT);

function supportFooter(ui: PageUi): Html | '' {
  const { url, email } = ui.support;
  const target = url ?? (email !== undefined ? `mailto:${email}` : undefined);
  if (target === undefined) return '';
  return html`<footer><p>${ui.text('common', 'common', 'supportText')} <a href="${target}">${ui.text('common', 'common', 'supportLinkText')}</a></p></footer>`;
}

/**
 * The variables a page template sees, as the service names them (those
 * Gatehouse has for every page; `prompt.name` where the page says which
 * prompt it belongs to).
 */
function templateVariables(ui: PageUi, content: PageDocument, branding: Branding): Record<string, unknown> {
  return {
    locale: ui.language,
    dir: 'ltr',
    application: { name: content.vars.clientName ?? '' },
    branding: { logo_url: branding.logo_url ?? '', colors: { primary: ui.branding.colors?.primary ?? '' } },
    tenant: { friendly_name: ui.companyName, support_url: ui.support.url ?? '', support_email: ui.support.email ?? '' },
    prompt: { name: content.prompt ?? '' },
  };
}

/**
 * The tenant's partial of a screen at one insertion point, rendered with the
 * page template's engine and limits (src/domain/branding/partials.ts): its
 * markup as the tenant wrote it, in a `div` naming the point; '' when there
 * is none or it fails to render. Its variables are the page template's
 * (`locale`, `application`, `tenant`, `prompt` with the screen).
 */
export function partialAt(ui: PageUi, prompt: string, screen: string, point: InsertionPoint): Html | '' {
  const source = ui.partials?.[prompt]?.[screen]?.[point];
  if (source === undefined) return '';
  const out = renderPartial(source, {
    locale: ui.language,
    dir: 'ltr',
    application: { name: ui.vars.clientName ?? '' },
    tenant: { friendly_name: ui.companyName, support_url: ui.support.url ?? '', support_email: ui.support.email ?? '' },
    prompt: { name: prompt, screen: { name: screen } },
  });
  return out === '' ? '' : new Html(`<div class="ulp-partial" data-point="${point}">${out}</div>`);
}

/** The render settings of the page's screen when they put it in advanced mode, else undefined (./acul.ts). */
export function advancedSettings(content: PageDocument, ui: PageUi): StoredRendering | undefined {
  if (content.prompt === undefined || content.screen === undefined) return undefined;
  return ui.rendering?.get(`${content.prompt}/${content.screen}`);
}

/**
 * A rendered hosted page and the CSP that lets exactly it load. `facts`
 * (what the request's transaction is: its client, organization, domain) are
 * read only by a screen in advanced mode: its filters and its context.
 */
export function renderPage(content: PageDocument, tenantUi: PageUi, formRedirects: readonly string[] = [], facts?: RenderingFacts): { html: Html; csp: string } {
  const ui = Object.keys(content.vars).length > 0 ? tenantUi.withVars(content.vars) : tenantUi;
  const settings = advancedSettings(content, ui);
  const advanced = settings !== undefined && advancedApplies(settings, facts) ? settings : undefined;
  // Advanced mode: the tenant's head tags and the context script (./acul.ts); with the default head tags disabled, the design system's styles and favicon are left out.
  const acul = advanced && { tags: headTags(advanced), context: contextScript(universalLoginContext(advanced, ui, content.prompt!, content.screen!, facts)) };
  const defaults = advanced?.default_head_tags_disabled !== true;
  const branding = brandingWithTheme(ui.branding, ui.theme);
  const tenantCss = tenantStyle(ui.branding, ui.theme);
  const images = [branding.logo_url, defaults ? branding.favicon_url : undefined, ui.theme?.page_background.background_image_url || undefined].map((u) => (u === undefined ? undefined : cspSourceOf(u))).filter((s): s is string => s !== undefined);
  const fonts = branding.font?.url === undefined ? [] : [cspSourceOf(branding.font.url)].filter((s): s is string => s !== undefined);
  const body = localize(content.body, ui);
  // Values are escaped, so only a control written by passwordField can start this way: the script comes with it, and only then.
  const passwordToggle = body.value.includes(PASSWORD_TOGGLE_START);
  // The same for the push waiting form, whose script also asks the status route: connect-src 'self' with it, and only then.
  const pushWait = body.value.includes(PUSH_WAIT_START);
  const webauthn = body.value.includes(WEBAUTHN_FORM_START);
  const scripts = [...(passwordToggle ? [PASSWORD_TOGGLE_HASH] : []), ...(pushWait ? [PUSH_WAIT_HASH] : []), ...(webauthn ? [WEBAUTHN_HASH] : []), ...(acul ? [acul.context.hash, ...acul.tags.sources.script] : [])];
  const embeds = content.embeds;
  const scriptSources = [...scripts, ...(embeds?.script ?? [])];
  const connectSources = [...(pushWait ? ["'self'"] : []), ...(embeds?.connect ?? [])];
  const styles = [...(defaults ? [BASE_STYLE_HASH, cspHash(tenantCss)] : []), ...(acul?.tags.sources.style ?? []), ...(embeds?.style ?? [])];
  const allImages = [...new Set([...images, ...(acul?.tags.sources.img ?? [])])];
  const allFonts = [...new Set([...fonts, ...(acul?.tags.sources.font ?? [])])];
  const csp = [
    "default-src 'none'",
    `form-action 'self'${formRedirects.length > 0 ? ` ${formRedirects.join(' ')}` : ''}`,
    ...(styles.length > 0 ? [`style-src ${styles.join(' ')}`] : []),
    ...(scriptSources.length > 0 ? [`script-src ${scriptSources.join(' ')}`] : []),
    ...(connectSources.length > 0 ? [`connect-src ${connectSources.join(' ')}`] : []),
    ...(embeds && embeds.frame.length > 0 ? [`frame-src ${embeds.frame.join(' ')}`] : []),
    ...(embeds && embeds.worker.length > 0 ? [`worker-src ${embeds.worker.join(' ')}`] : []),
    ...(allImages.length > 0 ? [`img-src ${allImages.join(' ')}`] : []),
    ...(allFonts.length > 0 ? [`font-src ${allFonts.join(' ')}`] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const logoAlt = ui.text('common', 'common', 'logoAltText');
  const head = defaults
    ? html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${localize(content.title, ui)}</title>
${branding.favicon_url ? html`<link rel="icon" href="${branding.favicon_url}">` : ''}
<style>${new Html(BASE_STYLE)}</style>
<style>${new Html(tenantCss)}</style>
${acul ? html`${acul.tags.html}${acul.context.html}` : ''}`
    : html`<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>${localize(content.title, ui)}</title>
${acul!.tags.html}${acul!.context.html}`;
  const widget = html`<main class="card">
<div class="brand">${branding.logo_url ? html`<img src="${branding.logo_url}" alt="${logoAlt}">` : ''}${ui.companyName && !branding.logo_url ? html`<p>${ui.companyName}</p>` : ''}</div>
${body}
${supportFooter(ui)}
</main>
${passwordToggle ? html`<script>${new Html(PASSWORD_TOGGLE_SCRIPT)}</script>\n` : ''}${pushWait ? html`<script>${new Html(PUSH_WAIT_SCRIPT)}</script>\n` : ''}${webauthn ? html`<script>${new Html(WEBAUTHN_SCRIPT)}</script>\n` : ''}`;
  // The tenant's page template around the page, when it has one and it renders (in advanced mode only with `use_page_template`); the CSP stays the page's.
  const template = advanced && !advanced.use_page_template ? undefined : ui.pageTemplate;
  const templated = template === undefined ? undefined : renderPageTemplate(template, { head: head.value, widget: widget.value }, templateVariables(ui, content, branding));
  const document = templated !== undefined ? new Html(templated) : html`<!DOCTYPE html>
<html lang="${ui.language}">
<head>
${head}</head>
<body${advanced ? html` data-rendering-mode="advanced" data-prompt="${content.prompt!}" data-screen="${content.screen!}"` : ''}>
${widget}</body>
</html>
`;
  return { html: document, csp };
}

/**
 * Sends a hosted page with the headers every page gets: its CSP (see
 * renderPage), no framing, no caching (pages are per ticket), and no Referer
 * (the URL holds a ticket). `formRedirects` are the origins a form's post may
 * be redirected to: browsers apply `form-action` to the redirects that follow
 * a submission (CSP Level 3 §6.3.1.3), and a login form's answer is a
 * redirect to the application.
 */
export async function sendPage(reply: FastifyReply, status: number, content: PageDocument, formRedirects: readonly string[] = []): Promise<FastifyReply> {
  const ui = (await reply.request.pageUi?.()) ?? DEFAULT_UI;
  // The transaction's facts are gathered only for a screen in advanced mode (its filters and context read them).
  const facts = advancedSettings(content, ui) === undefined ? undefined : await reply.request.renderingFacts?.();
  const rendered = renderPage(content, ui, formRedirects, facts);
  return sendHtml(reply, status, rendered.csp, rendered.html);
}
