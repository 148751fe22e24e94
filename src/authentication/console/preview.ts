/**
 * GET /admin/preview/login: the real login page, rendered by the design
 * system with branding the console's branding page has not saved yet
 * (`primary`, `page_background`: hex colours; `logo_url`: https; `lang`),
 * so the operator sees it in a frame before PATCH /api/v2/branding. Each
 * value is checked as that PATCH checks it (src/domain/branding/branding.ts);
 * a bad one is 400.
 *
 * The page is inert: its CSP has `form-action 'none'`, so the form posts
 * nowhere, and `frame-ancestors 'self'` instead of 'none', so that only a
 * page of this origin (the console) can frame it. Public, like the login
 * page itself: it shows nothing but the tenant's look.
 */
import type { RouteOptions } from 'fastify';
import { httpsUrlProblem, isHexColor, type Branding } from '../../domain/branding/branding.js';
import { CONSOLE_CLIENT_NAME, CONSOLE_PATH } from '../../domain/console/client.js';
import { isLanguage } from '../../domain/branding/texts.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { loadPageUi } from '../page-ui.js';
import { pageParams } from '../params.js';
import { loginPage } from '../pages/authorize.js';
import { renderPage } from '../pages/html.js';
import type { UiSettingsContext } from '../../domain/branding/service.js';

const PARAMS = ['primary', 'page_background', 'logo_url', 'lang'];

/** The overrides of the query, checked as PATCH /api/v2/branding checks them. */
function overrides(params: Readonly<Record<string, string | undefined>>): Branding {
  const { primary, page_background: background, logo_url: logo } = params;
  if (primary !== undefined && !isHexColor(primary)) throw oauthErrors.invalidRequest('primary must be a hex color (#rgb or #rrggbb)');
  if (background !== undefined && !isHexColor(background)) throw oauthErrors.invalidRequest('page_background must be a hex color (#rgb or #rrggbb)');
  const logoProblem = logo === undefined ? undefined : httpsUrlProblem(logo);
  if (logoProblem !== undefined) throw oauthErrors.invalidRequest(`logo_url ${logoProblem}`);
  return {
    ...((primary !== undefined || background !== undefined) && {
      colors: { ...(primary !== undefined && { primary }), ...(background !== undefined && { page_background: background }) },
    }),
    ...(logo !== undefined && { logo_url: logo }),
  };
}

/** The design system's CSP for the page, made inert and frameable by this origin only. */
function previewCsp(csp: string): string {
  return csp.replace(/form-action [^;]*/, "form-action 'none'").replace("frame-ancestors 'none'", "frame-ancestors 'self'");
}

export function loginPreviewRoute(ctx: UiSettingsContext): RouteOptions {
  return {
    method: 'GET',
    url: `${CONSOLE_PATH}preview/login`,
    handler: async (request, reply) => {
      const params = pageParams(request, PARAMS);
      const changed = overrides(params);
      if (params.lang !== undefined && !isLanguage(params.lang)) throw oauthErrors.invalidRequest('lang must be one of en, fr, de, es');
      if (params.lang !== undefined) request.uiLocales = params.lang;
      const ui = await loadPageUi(ctx, request, (stored) => ({
        ...stored,
        ...changed,
        ...(changed.colors && { colors: { ...stored.colors, ...changed.colors } }),
      }));
      const document = loginPage({ clientName: CONSOLE_CLIENT_NAME, state: 'preview', csrf: 'preview', usernames: false, signup: true });
      const rendered = renderPage(document, ui);
      return reply
        .code(200)
        .header('Content-Type', 'text/html; charset=utf-8')
        .header('Content-Security-Policy', previewCsp(rendered.csp))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Referrer-Policy', 'no-referrer')
        .header('Cache-Control', 'no-store')
        .send(rendered.html.value);
    },
  };
}
