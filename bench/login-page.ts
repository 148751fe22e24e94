/**
 * The login page case of `npm run bench` (bench/run.ts, BENCH_CASES=login_page):
 * GET /login of one open transaction, rendered by Gatehouse with the
 * tenant's page template and two prompt partials, and without them, in
 * turn on the same server (the template and partials are put before the
 * templated row's measurement and removed after it). The target (issue 31):
 * a page with a template takes at most 1.5x the time of one without, read as
 * the rate without ÷ the rate with.
 */
import { BenchError, managementCall, request, type Endpoint } from './lib.js';

const CALLBACK = 'https://bench-pages.example/callback';
const REALM = 'bench-pages';

/** A page template as a tenant writes one: its head and widget, a header and footer with the service's variables. */
export const BENCH_TEMPLATE = `<!DOCTYPE html><html lang="{{ locale }}" dir="{{ dir | default: "auto" }}"><head>{%- auth0:head -%}</head>
<body><header class="site">{{ tenant.friendly_name }} · {{ application.name }}{% if prompt.name == "login" %} · sign in{% endif %}</header>
{%- auth0:widget -%}
<footer class="legal">{% for link in (1..5) %}<a href="/legal/{{ link }}">Legal {{ link }}</a> {% endfor %}© {{ tenant.friendly_name }}</footer></body></html>`;
export const BENCH_PARTIALS = {
  login: {
    'form-content-end': '<p class="terms">By continuing you accept the terms of {{ tenant.friendly_name }} for {{ application.name }}.</p>',
    'form-footer-end': '<p class="help">{% if locale == "fr" %}Besoin d\'aide ?{% else %}Need help?{% endif %} Call the help desk.</p>',
  },
};
/** What the templated page has and the plain one has not: the check that each row renders what it says. */
export const TEMPLATED_MARK = '<header class="site">';

/** Through the Management API: a client with a callback and a database connection enabled for it (first start). */
export async function setUpLoginPages(endpoint: Endpoint, adminToken: string): Promise<{ clientId: string }> {
  const client = await managementCall<{ client_id: string }>(endpoint, adminToken, 'POST', '/clients', { name: 'Bench pages app', app_type: 'regular_web', callbacks: [CALLBACK] });
  await managementCall(endpoint, adminToken, 'POST', '/connections', { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] });
  return { clientId: client.client_id };
}

/** Opens one transaction (GET /authorize): the login page's path and the cookie that goes with it, checked to answer 200. */
export async function openLoginPage(endpoint: Endpoint, clientId: string): Promise<{ path: string; headers: Record<string, string> }> {
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'bench', code_challenge: 'b'.repeat(43), code_challenge_method: 'S256' });
  const start = await request(endpoint, 'GET', `/authorize?${query}`);
  const location = start.headers.location;
  if (start.status !== 302 || typeof location !== 'string') throw new BenchError(`GET /authorize answered ${start.status}, not a redirect to the login page`);
  const cookie = ([] as string[]).concat(start.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  const path = new URL(location, 'http://localhost').pathname + new URL(location, 'http://localhost').search;
  const headers: Record<string, string> = cookie ? { cookie } : {};
  const page = await request(endpoint, 'GET', path, undefined, headers);
  if (page.status !== 200 || !page.body.includes('action="/login"')) throw new BenchError(`GET ${path} answered ${page.status} without the login form`);
  return { path, headers };
}

/** Puts (or removes) the template and the partials, then checks that the page shows them (or not). */
export async function setTemplated(endpoint: Endpoint, adminToken: string, page: { path: string; headers: Record<string, string> }, on: boolean): Promise<void> {
  if (on) {
    await managementCall(endpoint, adminToken, 'PUT', '/branding/templates/universal-login', { template: BENCH_TEMPLATE });
    await managementCall(endpoint, adminToken, 'PUT', '/prompts/login/partials', BENCH_PARTIALS);
  } else {
    await managementCall(endpoint, adminToken, 'DELETE', '/branding/templates/universal-login');
    await managementCall(endpoint, adminToken, 'PUT', '/prompts/login/partials', {});
  }
  const body = (await request(endpoint, 'GET', page.path, undefined, page.headers)).body;
  if (body.includes(TEMPLATED_MARK) !== on || body.includes('class="terms"') !== on) throw new BenchError(`the login page ${on ? 'lacks' : 'still has'} the template or its partials`);
}
