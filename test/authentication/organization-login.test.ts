/**
 * Organizations in /authorize (the organization interaction step), through
 * app.inject on the real app and database: the `organization` parameter by id
 * and by name, the client's organization_usage and organization_require_behavior,
 * membership, assign_membership_on_login, invitations, and org_id in the ID,
 * access and refreshed tokens. Refusals: a non-member, an organization on a
 * deny client, a missing one on a require client, a used or expired invitation.
 * Discovery on the pre-login prompt by a verified email domain or by name, as
 * the client's organization_discovery_methods allow. The SSO session across
 * organizations (a membership check for each) and logout.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';

const REALM = 'org-users';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const API = 'https://org-api.example.com';

describe('/authorize with organizations', () => {
  let t: TestApp;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let connectionId: string;
  const clients: Record<'allow' | 'deny' | 'require' | 'pre' | 'post' | 'email' | 'both', string> = { allow: '', deny: '', require: '', pre: '', post: '', email: '', both: '' };
  const users: Record<string, string> = {};
  let acme: { id: string; name: string };
  let globex: { id: string; name: string };

  const api = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, { ...(body !== undefined && { body }) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body ? (res.json() as Record<string, unknown>) : {};
  };

  async function organization(name: string, assign = false) {
    const org = (await api('POST', '/api/v2/organizations', { name })) as { id: string; name: string };
    await api('POST', `/api/v2/organizations/${org.id}/enabled_connections`, { connection_id: connectionId, assign_membership_on_login: assign });
    return org;
  }

  async function client(extra: Record<string, unknown>): Promise<string> {
    const body = await api('POST', '/api/v2/clients', {
      name: 'Org app',
      app_type: 'spa',
      is_first_party: true,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      callbacks: [CALLBACK],
      initiate_login_uri: 'https://app.example.com/login',
      ...extra,
    });
    return body.client_id as string;
  }

  const url = (clientId: string, params: Record<string, string>, challenge: string) =>
    `/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256', state: 'st', scope: 'openid email offline_access', audience: API, ...params })}`;

  /** Logs in on the login page the browser is on (the Location of `res`). */
  async function logIn(browser: Browser, res: LightMyRequestResponse, email: string): Promise<LightMyRequestResponse> {
    assert.equal(res.statusCode, 302, res.body);
    const page = await browser.get(res.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /Log in/);
    return browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: email, password: PASSWORD });
  }

  /** Follows the browser through same-site redirects until it leaves for the callback. */
  async function follow(browser: Browser, res: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    while (res.statusCode === 302 && (res.headers.location as string).startsWith('/')) res = await browser.get(res.headers.location as string);
    return res;
  }

  async function exchange(clientId: string, code: string, verifier: string) {
    const res = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { access_token: string; id_token: string; refresh_token?: string };
  }

  async function claims(clientId: string, tokens: { access_token: string; id_token: string }): Promise<{ id: JWTPayload; access: JWTPayload }> {
    return {
      id: (await jwtVerify(tokens.id_token, jwks, { audience: clientId })).payload,
      access: (await jwtVerify(tokens.access_token, jwks, { audience: API })).payload,
    };
  }

  /** A login through /authorize with `params`; the callback's parameters. */
  async function loginTo(clientId: string, email: string, params: Record<string, string>) {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const done = await follow(browser, await logIn(browser, await browser.get(url(clientId, params, challenge)), email));
    return { params: redirectParams(done, CALLBACK), verifier, browser };
  }

  before(async () => {
    t = await createTestApp();
    await api('POST', '/api/v2/resource-servers', { identifier: API, name: 'Org API', scopes: [{ value: 'read:things' }], allow_offline_access: true, skip_consent_for_verifiable_first_party_clients: true });
    clients.allow = await client({ organization_usage: 'allow' });
    clients.deny = await client({});
    clients.require = await client({ organization_usage: 'require', organization_require_behavior: 'no_prompt' });
    clients.pre = await client({ organization_usage: 'require', organization_require_behavior: 'pre_login_prompt' });
    clients.post = await client({ organization_usage: 'require', organization_require_behavior: 'post_login_prompt', oidc_conformant: true });
    clients.email = await client({ organization_usage: 'require', organization_require_behavior: 'pre_login_prompt', organization_discovery_methods: ['email'] });
    clients.both = await client({ organization_usage: 'require', organization_require_behavior: 'pre_login_prompt', organization_discovery_methods: ['email', 'organization_name'] });
    const connection = await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: Object.values(clients) });
    connectionId = connection.id as string;
    for (const name of ['member', 'outsider', 'invitee', 'late', 'joiner']) {
      users[name] = (await api('POST', '/api/v2/users', { connection: REALM, email: `${name}@example.com`, password: PASSWORD })).user_id as string;
    }
    acme = await organization('acme');
    globex = await organization('globex', true);
    await api('POST', `/api/v2/organizations/${acme.id}/members`, { members: [users.member] });
    jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('a member logs in to an organization by id and by name: org_id in the ID and access tokens, kept by refreshes', async () => {
    for (const organization of [acme.id, acme.name]) {
      const { params, verifier } = await loginTo(clients.allow, 'member@example.com', { organization });
      const tokens = await exchange(clients.allow, params.get('code')!, verifier);
      const { id, access } = await claims(clients.allow, tokens);
      assert.equal(id.org_id, acme.id);
      assert.equal(access.org_id, acme.id);
      assert.equal(id.org_name, undefined, 'org_name only when the tenant asks for it');
      const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: clients.allow, refresh_token: tokens.refresh_token! });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      assert.equal((await claims(clients.allow, refreshed.json() as { access_token: string; id_token: string })).access.org_id, acme.id);
    }
  });

  it('org_name joins org_id when the tenant setting asks for it; no organization, no org claims', async () => {
    const settings = t.tenant.settings;
    await t.ctx.tenants.updateSettings(t.tenant, { ...settings, allow_organization_name_in_authentication_api: true });
    try {
      const { params, verifier } = await loginTo(clients.allow, 'member@example.com', { organization: acme.id });
      const { id, access } = await claims(clients.allow, await exchange(clients.allow, params.get('code')!, verifier));
      assert.equal(id.org_name, 'acme');
      assert.equal(access.org_name, 'acme');
    } finally {
      await t.ctx.tenants.updateSettings(t.tenant, settings);
    }
    const { params, verifier } = await loginTo(clients.allow, 'member@example.com', {});
    const { id } = await claims(clients.allow, await exchange(clients.allow, params.get('code')!, verifier));
    assert.equal(id.org_id, undefined);
  });

  it('refuses a non-member, after the login, with access_denied and no code', async () => {
    const { params } = await loginTo(clients.allow, 'outsider@example.com', { organization: acme.id });
    assert.equal(params.get('error'), 'access_denied');
    assert.match(params.get('error_description')!, /is not part of the org_\w+ organization/);
    assert.equal(params.get('code'), null);
  });

  it('refuses a member removed since: their refresh token stops working', async () => {
    const joined = (await api('POST', '/api/v2/users', { connection: REALM, email: 'leaver@example.com', password: PASSWORD })).user_id as string;
    await api('POST', `/api/v2/organizations/${acme.id}/members`, { members: [joined] });
    const { params, verifier } = await loginTo(clients.allow, 'leaver@example.com', { organization: acme.id });
    const tokens = await exchange(clients.allow, params.get('code')!, verifier);
    await api('DELETE', `/api/v2/organizations/${acme.id}/members`, { members: [joined] });
    const refreshed = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: clients.allow, refresh_token: tokens.refresh_token! });
    assert.equal(refreshed.statusCode, 403, refreshed.body);
    assert.equal((refreshed.json() as { error: string }).error, 'invalid_grant');
  });

  it('assign_membership_on_login makes the user a member of the organization', async () => {
    const { params, verifier } = await loginTo(clients.allow, 'joiner@example.com', { organization: globex.id });
    assert.equal((await claims(clients.allow, await exchange(clients.allow, params.get('code')!, verifier))).id.org_id, globex.id);
    const orgs = (await t.management('GET', `/api/v2/users/${encodeURIComponent(users.joiner!)}/organizations`)).json() as { id: string }[];
    assert.deepEqual(orgs.map((o) => o.id), [globex.id]);
  });

  it('refuses an organization on a deny client and a missing one on a require client, before any login', async () => {
    const browser = new Browser(t);
    const denied = redirectParams(await browser.get(url(clients.deny, { organization: acme.id }, pkce().challenge)), CALLBACK);
    assert.equal(denied.get('error'), 'invalid_request');
    assert.equal(denied.get('error_description'), 'parameter organization is not allowed for this client');
    const missing = redirectParams(await browser.get(url(clients.require, {}, pkce().challenge)), CALLBACK);
    assert.equal(missing.get('error'), 'invalid_request');
    assert.equal(missing.get('error_description'), 'parameter organization is required for this client');
    const unknown = redirectParams(await browser.get(url(clients.allow, { organization: 'org_nothere' }, pkce().challenge)), CALLBACK);
    assert.equal(unknown.get('error'), 'invalid_request');
  });

  it('pre_login_prompt asks for the organization name before the login', async () => {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const start = await browser.get(url(clients.pre, {}, challenge));
    assert.match(start.headers.location as string, /^\/organization\?state=/);
    const page = await browser.get(start.headers.location as string);
    assert.match(page.body, /Enter your organization/);
    const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token') };
    const wrong = await browser.post('/organization', { ...form, organization: 'no-such-org' });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /No organization was found/);
    const chosen = await browser.post('/organization', { ...form, organization: 'acme' });
    const done = await follow(browser, await logIn(browser, chosen, 'member@example.com'));
    const params = redirectParams(done, CALLBACK);
    assert.equal((await claims(clients.pre, await exchange(clients.pre, params.get('code')!, verifier))).id.org_id, acme.id);
  });

  it('post_login_prompt lists the user\'s organizations after the login, and takes only one of them', async () => {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const afterLogin = await logIn(browser, await browser.get(url(clients.post, {}, challenge)), 'member@example.com');
    assert.match(afterLogin.headers.location as string, /^\/organization\?state=/);
    const page = await browser.get(afterLogin.headers.location as string);
    assert.match(page.body, /Choose an organization/);
    assert.ok(page.body.includes(`value="${acme.id}"`));
    assert.ok(!page.body.includes(globex.id), 'only the user\'s organizations');
    const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token') };
    assert.equal((await browser.post('/organization', { ...form, organization: globex.id })).statusCode, 400);
    const done = await follow(browser, await browser.post('/organization', { ...form, organization: acme.id }));
    const params = redirectParams(done, CALLBACK);
    assert.equal((await claims(clients.post, await exchange(clients.post, params.get('code')!, verifier))).id.org_id, acme.id);
  });

  describe('invitations', () => {
    async function invite(email: string, extra: Record<string, unknown> = {}) {
      const role = (await api('POST', '/api/v2/roles', { name: `invited-${Math.random().toString(36).slice(2)}` })) as { id: string };
      const invitation = (await api('POST', `/api/v2/organizations/${acme.id}/invitations`, {
        inviter: { name: 'Jane' },
        invitee: { email },
        client_id: clients.allow,
        roles: [role.id],
        ...extra,
      })) as { invitation_url: string; ticket_id: string };
      return { role, ticket: invitation.ticket_id, link: new URL(invitation.invitation_url) };
    }

    it('accepting an invitation makes the invitee a member with the invited roles; the invitation works once', async () => {
      const { role, ticket, link } = await invite('invitee@example.com');
      const params = { organization: link.searchParams.get('organization')!, invitation: link.searchParams.get('invitation')! };
      const first = await loginTo(clients.allow, 'invitee@example.com', params);
      assert.equal((await claims(clients.allow, await exchange(clients.allow, first.params.get('code')!, first.verifier))).id.org_id, acme.id);
      const roles = (await t.management('GET', `/api/v2/organizations/${acme.id}/members/${encodeURIComponent(users.invitee!)}/roles`)).json() as { id: string }[];
      assert.deepEqual(roles.map((r) => r.id), [role.id]);

      const again = redirectParams(await new Browser(t).get(url(clients.allow, { organization: acme.id, invitation: ticket }, pkce().challenge)), CALLBACK);
      assert.equal(again.get('error'), 'access_denied');
      assert.match(again.get('error_description')!, /invitation is not valid/);
    });

    it('refuses an expired invitation, and one used by another email address', async () => {
      const expired = await invite('late@example.com', { ttl_sec: 60 });
      await withClockAdvanced(t, 61_000, async () => {
        const refused = redirectParams(await new Browser(t).get(url(clients.allow, { organization: acme.id, invitation: expired.ticket }, pkce().challenge)), CALLBACK);
        assert.equal(refused.get('error'), 'access_denied');
      });
      const other = await invite('someone-else@example.com');
      const { params } = await loginTo(clients.allow, 'outsider@example.com', { organization: acme.id, invitation: other.ticket });
      assert.equal(params.get('error'), 'access_denied');
      assert.equal(params.get('error_description'), 'the invitation was sent to another email address');
      const isMember = (await t.management('GET', `/api/v2/users/${encodeURIComponent(users.outsider!)}/organizations`)).json() as unknown[];
      assert.deepEqual(isMember, []);
    });
  });

  describe('organization discovery on the pre-login prompt', () => {
    /** Starts a login on `clientId`, types `typed` on the organization prompt; the answer and what the login needs next. */
    async function prompt(clientId: string, typed: string) {
      const browser = new Browser(t);
      const { verifier, challenge } = pkce();
      const start = await browser.get(url(clientId, {}, challenge));
      assert.match(start.headers.location as string, /^\/organization\?state=/);
      const page = await browser.get(start.headers.location as string);
      const answer = await browser.post('/organization', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), organization: typed });
      return { browser, verifier, page, answer };
    }

    before(async () => {
      await api('POST', `/api/v2/organizations/${acme.id}/discovery-domains`, { domain: 'example.com', status: 'verified' });
      await api('POST', `/api/v2/organizations/${globex.id}/discovery-domains`, { domain: 'pending.example' });
    });

    it('an email address of a verified domain leads to its organization, and the login page has the address', async () => {
      const { browser, verifier, page, answer } = await prompt(clients.email, 'member@EXAMPLE.com');
      assert.match(page.body, /Enter your email/);
      assert.match(page.body, /type="email"/);
      assert.equal(answer.statusCode, 302, answer.body);
      const login = await browser.get(answer.headers.location as string);
      assert.match(login.body, /value="member@EXAMPLE\.com"/, 'the address is the login hint');
      const done = await follow(browser, await browser.post('/login', { state: hidden(login.body, 'state'), csrf_token: hidden(login.body, 'csrf_token'), username: 'member@example.com', password: PASSWORD }));
      const params = redirectParams(done, CALLBACK);
      assert.equal((await claims(clients.email, await exchange(clients.email, params.get('code')!, verifier))).id.org_id, acme.id);
    });

    it('refuses a domain that is only pending, an unknown domain, and a name when only email is enabled', async () => {
      for (const [typed, message] of [
        ['someone@pending.example', 'No organization was found for that email address.'],
        ['someone@nowhere.example', 'No organization was found for that email address.'],
        ['acme', 'Enter your email address.'],
        ['@example.com', 'Enter a valid email address.'],
      ] as const) {
        const { answer } = await prompt(clients.email, typed);
        assert.equal(answer.statusCode, 400, typed);
        assert.ok(answer.body.includes(message), `${typed}: ${answer.body}`);
      }
    });

    it('refuses an email address when the client allows discovery by name only (the default)', async () => {
      const { page, answer } = await prompt(clients.pre, 'member@example.com');
      assert.match(page.body, /Organization name/);
      assert.equal(answer.statusCode, 400);
      assert.ok(answer.body.includes('Enter the name of your organization, not an email address.'));
    });

    it('with both methods, a name or an email address is taken', async () => {
      for (const typed of ['acme', 'member@example.com']) {
        const { page, answer } = await prompt(clients.both, typed);
        assert.match(page.body, /Organization name or email address/);
        assert.equal(answer.statusCode, 302, `${typed}: ${answer.body}`);
      }
    });

    it('a domain no longer used for discovery leads nowhere', async () => {
      const domains = (await api('GET', `/api/v2/organizations/${acme.id}/discovery-domains`)) as { domains: { id: string }[] };
      const id = domains.domains[0]!.id;
      await api('PATCH', `/api/v2/organizations/${acme.id}/discovery-domains/${id}`, { use_for_organization_discovery: false });
      try {
        assert.equal((await prompt(clients.email, 'member@example.com')).answer.statusCode, 400);
      } finally {
        await api('PATCH', `/api/v2/organizations/${acme.id}/discovery-domains/${id}`, { use_for_organization_discovery: true });
      }
    });
  });

  describe('the SSO session across organizations, and logout', () => {
    it('a session of one organization is used for another only after a membership check; the tokens name the new one', async () => {
      const initech = await organization('initech');
      const { browser } = await loginTo(clients.allow, 'member@example.com', { organization: acme.id });
      // Not a member of initech: refused, with or without prompt=none, although the session is valid.
      for (const extra of [{}, { prompt: 'none' }] as Record<string, string>[]) {
        const refused = redirectParams(await browser.get(url(clients.allow, { organization: initech.id, ...extra }, pkce().challenge)), CALLBACK);
        assert.equal(refused.get('error'), 'access_denied');
        assert.match(refused.get('error_description')!, new RegExp(`is not part of the ${initech.id} organization`));
      }
      // A member now: the session answers without a login page, and the tokens carry initech.
      await api('POST', `/api/v2/organizations/${initech.id}/members`, { members: [users.member] });
      const { verifier, challenge } = pkce();
      const silent = redirectParams(await browser.get(url(clients.allow, { organization: initech.id, prompt: 'none' }, challenge)), CALLBACK);
      const { id, access } = await claims(clients.allow, await exchange(clients.allow, silent.get('code')!, verifier));
      assert.equal(id.org_id, initech.id);
      assert.equal(access.org_id, initech.id);
    });

    it('/v2/logout ends the session for every organization; an organization parameter changes nothing', async () => {
      const { browser } = await loginTo(clients.allow, 'member@example.com', { organization: acme.id });
      const before = redirectParams(await browser.get(url(clients.allow, { organization: acme.id, prompt: 'none' }, pkce().challenge)), CALLBACK);
      assert.ok(before.get('code'), 'the session is live');
      const out = await browser.get(`/v2/logout?organization=${acme.id}`);
      assert.equal(out.statusCode, 200, out.body);
      for (const organization of [acme.id, globex.id]) {
        const after = redirectParams(await browser.get(url(clients.allow, { organization, prompt: 'none' }, pkce().challenge)), CALLBACK);
        assert.equal(after.get('error'), 'login_required', organization);
      }
    });
  });
});
