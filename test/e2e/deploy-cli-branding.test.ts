/**
 * The hosted pages' look through auth0-deploy-cli (`a0deploy`) against the
 * built server over HTTPS: a tenant folder with a theme, a page template,
 * two prompt partials and two phone templates is imported (the tool's
 * calls: POST /branding/themes, PUT /branding/templates/universal-login,
 * PUT /prompts/{prompt}/partials, POST /branding/phone/templates, PATCH
 * /prompts/{prompt}/screen/{screen}/rendering), the login page then shows
 * them (the login screen in advanced mode inside the template), the tenant is exported (the template only with a
 * custom domain, as the tool asks for one), the export has the same files,
 * and importing that export and exporting again gives the same folder.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { defaultTheme } from '../fixtures/themes.js';
import { cleanUp, httpsRequest, managementToken, runNode } from './support/https.js';

const BIN = path.join(ROOT, 'node_modules/auth0-deploy-cli/lib/index.js');

const TEMPLATE = `<!DOCTYPE html><html lang="{{ locale }}"><head>{%- auth0:head -%}</head>
<body><header id="acme-bar">{{ tenant.friendly_name }} for {{ application.name }}</header>{%- auth0:widget -%}<footer id="acme-legal">Acme legal</footer></body></html>
`;
const PARTIALS: Record<string, Record<string, Record<string, string>>> = {
  login: { login: { 'form-content-end': '<p id="acme-terms">By logging in you accept the terms of {{ tenant.friendly_name }}.</p>' } },
  signup: { signup: { 'form-footer-start': '<p id="acme-signup-help">Ask the help desk if you have no invitation.</p>' } },
};
/** The screens' render settings, as the tool keeps them (prompts/screenRenderSettings/<prompt>_<screen>.json). */
const RENDER_SETTINGS = [
  {
    prompt: 'login',
    screen: 'login',
    rendering_mode: 'advanced',
    context_configuration: ['client.description', 'tenant.friendly_name'],
    default_head_tags_disabled: false,
    use_page_template: true,
    head_tags: [{ tag: 'script', attributes: { src: 'https://cdn.acme.example/acul/login.js', defer: true } }],
    filters: null,
  },
  { prompt: 'signup', screen: 'signup', rendering_mode: 'standard', context_configuration: [], default_head_tags_disabled: false, use_page_template: false, head_tags: [], filters: null },
];
const PHONE_TEMPLATES = [
  { type: 'otp_verify', disabled: false, content: { syntax: 'liquid', from: '+15550001234', body: { text: '{% if locale == "fr" %}Votre code : {{ code }}{% else %}Your code: {{ code }}{% endif %}', voice: 'Your code is {{ code }}' } } },
  { type: 'otp_enroll', disabled: false, content: { syntax: 'liquid', body: { text: 'Enrol with {{ code }} at {{ friendly_name }}', voice: 'Enrol with {{ code }}' } } },
];

/** Every file of a folder, by relative path, with its content. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('Themes, page template, partials and phone templates through auth0-deploy-cli', () => {
  let server: ServerProcess;
  let ca: Buffer;
  let token: string;
  let work: string;

  async function api<T = any>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await httpsRequest(`${server.baseUrl}/api/v2${url}`, {
      ca,
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (res.text ? res.json() : undefined) as T };
  }

  async function a0deploy(args: string[], success: string): Promise<void> {
    const run = await runNode([BIN, ...args, '-c', path.join(work, 'config.json')], {
      cwd: work,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile, FORCE_COLOR: '0', NO_COLOR: '1' },
      timeoutMs: 600_000,
    });
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, `a0deploy ${args.join(' ')} failed:\n${output}\n${server.output().slice(-3000)}`);
    assert.match(output, new RegExp(success));
    assert.doesNotMatch(output, / - error: /, output);
  }

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' }, timeoutMs: 120_000 });
    ca = fs.readFileSync(server.certFile);
    token = await managementToken(server);
    work = tempDir('gatehouse-deploy-cli-branding-');
    const admin = server.admin();
    fs.writeFileSync(
      path.join(work, 'config.json'),
      JSON.stringify({ AUTH0_DOMAIN: server.domain, AUTH0_CLIENT_ID: admin.client_id, AUTH0_CLIENT_SECRET: admin.client_secret, AUTH0_INCLUDED_ONLY: ['themes', 'branding', 'prompts', 'phoneTemplates'] }),
    );
  });
  after(() => cleanUp([server], [server.dataDir, work]));

  it('imports a folder with a theme, a page template, two partials, two screens\' render settings and two phone templates; exports it the same; imports and exports that again unchanged', async () => {
    const input = path.join(work, 'tenant');
    const theme = { ...defaultTheme(), displayName: 'Acme' };
    fs.mkdirSync(path.join(input, 'themes'), { recursive: true });
    fs.writeFileSync(path.join(input, 'themes', 'theme.json'), JSON.stringify(theme, null, 2));
    fs.mkdirSync(path.join(input, 'branding', 'templates'), { recursive: true });
    fs.writeFileSync(path.join(input, 'branding', 'templates', 'universal_login.html'), TEMPLATE);
    fs.writeFileSync(path.join(input, 'branding', 'templates', 'universal_login.json'), JSON.stringify({ template: 'universal_login', body: './universal_login.html' }));
    const partialsFile: Record<string, Record<string, { name: string; template: string }[]>[]> = {};
    for (const [prompt, screens] of Object.entries(PARTIALS)) {
      const screenEntries: Record<string, { name: string; template: string }[]> = {};
      for (const [screen, points] of Object.entries(screens)) {
        screenEntries[screen] = Object.entries(points).map(([point, source]) => {
          const file = path.join('partials', prompt, screen, `${point}.liquid`);
          fs.mkdirSync(path.join(input, 'prompts', path.dirname(file)), { recursive: true });
          fs.writeFileSync(path.join(input, 'prompts', file), source);
          return { name: point, template: file };
        });
      }
      partialsFile[prompt] = [screenEntries];
    }
    fs.writeFileSync(path.join(input, 'prompts', 'partials.json'), JSON.stringify(partialsFile, null, 2));
    fs.mkdirSync(path.join(input, 'prompts', 'screenRenderSettings'), { recursive: true });
    for (const settings of RENDER_SETTINGS) fs.writeFileSync(path.join(input, 'prompts', 'screenRenderSettings', `${settings.prompt}_${settings.screen}.json`), JSON.stringify(settings, null, 2));
    fs.mkdirSync(path.join(input, 'phone-templates'), { recursive: true });
    for (const template of PHONE_TEMPLATES) fs.writeFileSync(path.join(input, 'phone-templates', `${template.type}.json`), JSON.stringify(template, null, 2));

    await a0deploy(['import', '-i', 'tenant'], 'Import Successful');

    // What the import left on the tenant.
    const stored = (await api<Record<string, unknown>>('GET', '/branding/themes/default')).body;
    assert.deepEqual({ ...stored, themeId: undefined }, { ...theme, themeId: undefined });
    assert.equal((await api<{ body: string }>('GET', '/branding/templates/universal-login')).body.body, TEMPLATE);
    for (const [prompt, screens] of Object.entries(PARTIALS)) assert.deepEqual((await api('GET', `/prompts/${prompt}/partials`)).body, screens, prompt);
    for (const { prompt, screen, ...settings } of RENDER_SETTINGS) {
      const got = (await api<Record<string, unknown>>('GET', `/prompts/${prompt}/screen/${screen}/rendering`)).body;
      assert.deepEqual({ ...got, tenant: undefined }, { tenant: undefined, prompt, screen, ...settings }, `${prompt}/${screen}`);
    }
    const phone = (await api<{ templates: { id?: string; type: string; content: unknown }[] }>('GET', '/branding/phone/templates')).body.templates;
    for (const template of PHONE_TEMPLATES) {
      const found = phone.find((p) => p.type === template.type)!;
      assert.ok(found.id, `${template.type} created`);
      assert.deepEqual(found.content, template.content, template.type);
    }

    // The tool exports the page template only from a tenant with a custom domain.
    assert.equal((await api('POST', '/custom-domains', { domain: 'login.acme.example', type: 'self_managed_certs' })).status, 201);
    await a0deploy(['export', '-f', 'directory', '-o', 'first'], 'Export Successful');
    const first = filesOf(path.join(work, 'first'));
    const exportedTheme = JSON.parse(first['themes/theme.json']!) as Record<string, unknown>;
    assert.deepEqual({ ...exportedTheme, themeId: undefined }, { ...theme, themeId: undefined });
    assert.equal(first['branding/templates/universal_login.html'], TEMPLATE);
    for (const [prompt, screens] of Object.entries(PARTIALS)) {
      for (const [screen, points] of Object.entries(screens)) {
        for (const [point, source] of Object.entries(points)) assert.equal(first[`prompts/partials/${prompt}/${screen}/${point}.liquid`], source, `${prompt}/${screen}/${point}`);
      }
    }
    assert.deepEqual(Object.keys(JSON.parse(first['prompts/partials.json']!) as object).sort(), ['login', 'signup']);
    for (const settings of RENDER_SETTINGS) assert.deepEqual(JSON.parse(first[`prompts/screenRenderSettings/${settings.prompt}_${settings.screen}.json`]!), settings, `${settings.prompt}/${settings.screen}`);
    for (const template of PHONE_TEMPLATES) {
      const exported = JSON.parse(first[`phone-templates/${template.type}.json`]!) as { type: string; disabled: boolean; content: unknown };
      assert.deepEqual({ type: exported.type, disabled: exported.disabled, content: exported.content }, template, template.type);
    }

    // The export imported again and exported once more: the same folder.
    await a0deploy(['import', '-i', 'first'], 'Import Successful');
    await a0deploy(['export', '-f', 'directory', '-o', 'second'], 'Export Successful');
    assert.deepEqual(filesOf(path.join(work, 'second')), first);

    // The login page shows the template and the login partial, the login screen in advanced mode.
    const client = (await api<{ client_id: string }>('POST', '/clients', { name: 'Acme web', app_type: 'regular_web', callbacks: ['https://app.acme.example/callback'] })).body;
    assert.equal((await api('POST', '/connections', { name: 'acme-users', strategy: 'auth0', enabled_clients: [client.client_id] })).status, 201);
    const query = new URLSearchParams({ client_id: client.client_id, redirect_uri: 'https://app.acme.example/callback', response_type: 'code', scope: 'openid', state: 's', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const start = await httpsRequest(`${server.baseUrl}/authorize?${query}`, { ca });
    assert.equal(start.status, 302, start.text.slice(0, 500));
    const cookies = ([] as string[]).concat(start.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
    const page = await httpsRequest(new URL(String(start.headers.location), server.baseUrl).href, { ca, headers: { cookie: cookies } });
    assert.equal(page.status, 200, page.text.slice(0, 500));
    assert.match(page.text, /<header id="acme-bar">[^<]* for Acme web<\/header><main class="card">/);
    assert.match(page.text, /<p id="acme-terms">By logging in you accept the terms of [^<]+\.<\/p>/);
    assert.match(page.text, /<script src="https:\/\/cdn\.acme\.example\/acul\/login\.js" defer><\/script>/);
    assert.match(page.text, /window\.universal_login_context = \{/);
    assert.match(String(page.headers['content-security-policy']), /script-src [^;]*https:\/\/cdn\.acme\.example/);
  });
});
