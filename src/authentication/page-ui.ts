/**
 * What a hosted page of this request is rendered with (pages/html.ts
 * PageUi): the tenant's branding, theme, page template and prompt partials, the screens in advanced mode, its prompts' settings, its support contact,
 * and the language, with the tenant's custom texts in it. Loaded only when a
 * page is sent (request.pageUi, memoized), so the JSON endpoints read nothing.
 *
 * The language: `ui_locales` (the authorization request's, kept with its
 * transaction, or the page's own query), then `Accept-Language`, among the
 * tenant's `enabled_locales` that Gatehouse has texts in (all four when
 * unset); failing those, the first enabled one (src/domain/branding/texts.ts).
 *
 * The support link: `support_url`, else `support_email` of the tenant's
 * settings, when they are set there (both optional, https / an address).
 */
import type { FastifyRequest } from 'fastify';
import { httpsUrlProblem, type Branding } from '../domain/branding/branding.js';
import { customTextsIn, readBranding, readPromptSettings, type UiSettingsContext } from '../domain/branding/service.js';
import { chooseLanguage, enabledLanguages } from '../domain/branding/texts.js';
import { readTheme } from '../domain/branding/theme.js';
import { readPageTemplate } from '../domain/branding/page-template.js';
import { allPartials } from '../domain/branding/partials.js';
import { listRendering, type StoredRendering } from '../domain/branding/rendering.js';
import { pageUi, type PageUi } from './pages/html.js';

const MAX_SUPPORT_EMAIL = 254;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+$/;

function supportOf(settings: Record<string, unknown>): { url?: string; email?: string } {
  const url = settings.support_url;
  const email = settings.support_email;
  return {
    ...(typeof url === 'string' && httpsUrlProblem(url) === undefined && { url }),
    ...(typeof email === 'string' && email.length <= MAX_SUPPORT_EMAIL && EMAIL.test(email) && { email }),
  };
}

function queryUiLocales(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.ui_locales;
  return typeof value === 'string' ? value : undefined;
}

/** `withBranding` changes the stored branding before the page uses it (the console's live preview, ./console/preview.ts). */
export async function loadPageUi(ctx: UiSettingsContext, request: FastifyRequest, withBranding: (stored: Branding) => Branding = (b) => b): Promise<PageUi> {
  const { tenant } = request;
  const settings = tenant.settings as unknown as Record<string, unknown>;
  const accept = request.headers['accept-language'];
  const language = chooseLanguage(enabledLanguages(settings.enabled_locales), request.uiLocales ?? queryUiLocales(request), typeof accept === 'string' ? accept : undefined);
  const [branding, theme, pageTemplate, partials, prompts, custom, rendering] = await Promise.all([
    readBranding(ctx, tenant.id),
    readTheme(ctx, tenant.id),
    readPageTemplate(ctx, tenant.id),
    allPartials(ctx, tenant.id),
    readPromptSettings(ctx, tenant.id),
    customTextsIn(ctx, tenant.id, language),
    listRendering(ctx, tenant.id),
  ]);
  const advanced = new Map<string, StoredRendering>(rendering.filter((r) => r.rendering_mode === 'advanced').map((r) => [`${r.prompt}/${r.screen}`, r]));
  const friendly = settings.friendly_name;
  return pageUi({
    language,
    custom,
    branding: withBranding(branding),
    ...(theme && { theme }),
    ...(pageTemplate !== undefined && { pageTemplate }),
    ...(Object.keys(partials).length > 0 && { partials }),
    ...(advanced.size > 0 && { rendering: advanced }),
    companyName: typeof friendly === 'string' && friendly !== '' ? friendly : tenant.name,
    support: supportOf(settings),
    identifierFirst: prompts.identifier_first,
  });
}

/** onRequest hook: pages of this request load their UI once, when one is sent. */
export function pageUiHook(ctx: UiSettingsContext) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.tenant) return;
    let loaded: Promise<PageUi> | undefined;
    request.pageUi = () => (loaded ??= loadPageUi(ctx, request));
  };
}
