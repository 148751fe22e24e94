// /api/v2/self-service-profiles: the profiles (CRUD, custom text), their SSO tickets (created bound to the
// profile and tenant, single use, revocable, expiring) and the ticket page's refusals, on the real app:
// a used, revoked, expired or unknown ticket, another tenant's host, bad metadata; what a ticket enables is
// checked when it is made. The page's whole flow with a real IdP and Chromium: test/e2e/self-service-sso.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { externalIdp, keyAndCertificate } from '../helpers/saml.js';
import { postgresAvailable } from '../helpers/postgres.js';

const postgresSkip = (await postgresAvailable()) ? false : 'PostgreSQL is not reachable';

for (const database of ['SQLite', 'PostgreSQL'] as const) describe(`/api/v2/self-service-profiles and the ticket page (${database})`, { skip: database === 'PostgreSQL' && postgresSkip }, () => {
  let t: TestApp;
  let clientId: string;
  let organizationId: string;
  let idpMetadata: string;

  const api = async (method: string, url: string, body?: unknown, status = method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200) => {
    const res = await t.management(method, url, { ...(body !== undefined && { body }) });
    assert.equal(res.statusCode, status, `${method} ${url}: ${res.body}`);
    return res.body ? res.json() : undefined;
  };
  const page = (method: 'GET' | 'POST', ticket: string, metadata?: string, host = DOMAIN) =>
    t.app.inject({
      method,
      url: method === 'GET' ? `/self-service/connections-flow?ticket=${encodeURIComponent(ticket)}` : '/self-service/connections-flow',
      headers: { host, ...(method === 'POST' && { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(method === 'POST' && { payload: new URLSearchParams({ ticket, metadata: metadata ?? '' }).toString() }),
    });
  const ticketOf = (url: string) => {
    const parsed = new URL(url);
    assert.equal(parsed.origin, `https://${DOMAIN}`);
    assert.equal(parsed.pathname, '/self-service/connections-flow');
    return parsed.searchParams.get('ticket')!;
  };

  before(async () => {
    t = await createTestApp({ postgres: database === 'PostgreSQL' });
    clientId = (await api('POST', '/api/v2/clients', { name: 'Customer portal', callbacks: ['https://portal.example.com/callback'] })).client_id;
    organizationId = (await api('POST', '/api/v2/organizations', { name: 'initech' })).id;
    idpMetadata = externalIdp(await keyAndCertificate('idp.initech.example'), 'https://idp.initech.example/metadata', 'https://idp.initech.example/sso').metadata;
  });
  after(() => t.close());

  it('creates, lists, reads, updates and deletes profiles, with their custom text', async () => {
    const created = await api('POST', '/api/v2/self-service-profiles', { name: 'B2B customers', description: 'SSO for our customers', allowed_strategies: ['samlp'], user_attributes: [{ name: 'email', description: 'Email', is_optional: false }], branding: { colors: { primary: '#0a7' } } });
    assert.match(created.id, /^ssp_\w{22}$/);
    assert.deepEqual(created.allowed_strategies, ['samlp']);
    assert.deepEqual(await api('GET', `/api/v2/self-service-profiles/${created.id}`), created);
    const listed = await api('GET', '/api/v2/self-service-profiles?include_totals=true');
    assert.equal(listed.total, 1);
    assert.deepEqual(listed.self_service_profiles[0].id, created.id);
    const updated = await api('PATCH', `/api/v2/self-service-profiles/${created.id}`, { name: 'Enterprise customers', description: null });
    assert.equal(updated.name, 'Enterprise customers');
    assert.equal(updated.description, undefined);
    assert.deepEqual(await api('PUT', `/api/v2/self-service-profiles/${created.id}/custom-text/en/get-started`, { introduction: 'Welcome' }), { introduction: 'Welcome' });
    assert.deepEqual(await api('GET', `/api/v2/self-service-profiles/${created.id}/custom-text/en/get-started`), { introduction: 'Welcome' });
    await api('DELETE', `/api/v2/self-service-profiles/${created.id}`);
    await api('GET', `/api/v2/self-service-profiles/${created.id}`, undefined, 404);
    // Refusals: bad bodies, an unknown language or page, a missing scope.
    await api('POST', '/api/v2/self-service-profiles', { name: '' }, 400);
    await api('POST', '/api/v2/self-service-profiles', { name: 'x', allowed_strategies: ['ldap'] }, 400);
    await api('POST', '/api/v2/self-service-profiles', { name: 'x', branding: { logo_url: 'http://insecure.example/logo.png' } }, 400);
    await api('GET', `/api/v2/self-service-profiles/${created.id}/custom-text/fr/get-started`, undefined, 400);
    const readOnly = await t.managementToken('read:self_service_profiles');
    assert.equal((await t.management('POST', '/api/v2/self-service-profiles', { body: { name: 'x' }, token: readOnly })).statusCode, 403);
  });

  it('a ticket opens the page once: it creates the SAML connection, enables it as asked, and is spent', async () => {
    const profile = await api('POST', '/api/v2/self-service-profiles', { name: 'Initech' });
    const { ticket: url } = await api('POST', `/api/v2/self-service-profiles/${profile.id}/sso-ticket`, {
      connection_config: { name: 'initech-sso' },
      enabled_clients: [clientId],
      enabled_organizations: [{ organization_id: organizationId, assign_membership_on_login: true }],
      ttl_sec: 600,
    });
    const ticket = ticketOf(url);
    const form = await page('GET', ticket);
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /Initech/);
    assert.match(String(form.headers['content-security-policy']), /default-src 'none'/);
    // Metadata that is not SAML's: refused, the ticket kept.
    const bad = await page('POST', ticket, '<html>not metadata</html>');
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /not SAML 2\.0 metadata/);
    const done = await page('POST', ticket, idpMetadata);
    assert.equal(done.statusCode, 201, done.body);
    assert.match(done.body, /initech-sso/);
    const connection = (await api('GET', '/api/v2/connections?name=initech-sso'))[0];
    assert.equal(connection.strategy, 'samlp');
    assert.equal(connection.options.signInEndpoint, 'https://idp.initech.example/sso');
    assert.match(connection.options.signingCert, /^-----BEGIN CERTIFICATE-----/);
    assert.deepEqual((await api('GET', `/api/v2/connections/${connection.id}/clients`)).clients.map((c: { client_id: string }) => c.client_id), [clientId]);
    const enabled = await api('GET', `/api/v2/organizations/${organizationId}/enabled_connections/${connection.id}`);
    assert.equal(enabled.assign_membership_on_login, true);
    // Used: refused, nothing more created.
    assert.equal((await page('GET', ticket)).statusCode, 400);
    assert.equal((await page('POST', ticket, idpMetadata)).statusCode, 400);
  });

  it('refuses revoked, expired, unknown and other hosts\' tickets, and tickets asking for what does not exist', async () => {
    const profile = await api('POST', '/api/v2/self-service-profiles', { name: 'Refusals' });
    const issue = async (body: unknown = {}) => ticketOf((await api('POST', `/api/v2/self-service-profiles/${profile.id}/sso-ticket`, body)).ticket);
    const revoked = await issue();
    assert.deepEqual(await api('POST', `/api/v2/self-service-profiles/${profile.id}/sso-ticket/${encodeURIComponent(revoked)}/revoke`, undefined, 202), {});
    assert.equal((await page('GET', revoked)).statusCode, 400);
    assert.equal((await page('POST', revoked, idpMetadata)).statusCode, 400);

    const shortLived = await issue({ ttl_sec: 60 });
    assert.equal((await page('GET', shortLived)).statusCode, 200);
    await withClockAdvanced(t, 61_000, async () => {
      assert.equal((await page('GET', shortLived)).statusCode, 400);
      assert.equal((await page('POST', shortLived, idpMetadata)).statusCode, 400);
    });
    assert.equal((await page('GET', 'made-up-ticket')).statusCode, 400);
    // The ticket is the tenant's: another host is not this tenant.
    const elsewhere = await page('GET', await issue(), undefined, 'other-tenant.example.com');
    assert.notEqual(elsewhere.statusCode, 200);
    // A deleted profile takes its tickets with it.
    const orphan = await issue();
    await api('DELETE', `/api/v2/self-service-profiles/${profile.id}`);
    assert.equal((await page('GET', orphan)).statusCode, 400);

    const other = await api('POST', '/api/v2/self-service-profiles', { name: 'Checks' });
    const ticket = (body: unknown, status: number) => api('POST', `/api/v2/self-service-profiles/${other.id}/sso-ticket`, body, status);
    await ticket({ enabled_clients: ['no-such-client'] }, 400);
    await ticket({ enabled_organizations: [{ organization_id: 'org_nosuchorganization' }] }, 400);
    await ticket({ connection_config: { name: 'initech-sso' } }, 409);
    await ticket({ connection_config: { name: 'bad name!' } }, 400);
    await ticket({ ttl_sec: 432_001 }, 400);
    await ticket({ connection_id: 'con_0123456789abcdef' }, 400);
    await ticket({ domain_aliases_config: { domain_verification: 'required' } }, 400);
    await api('POST', '/api/v2/self-service-profiles/ssp_doesnotexist/sso-ticket', {}, 404);
  });
});
