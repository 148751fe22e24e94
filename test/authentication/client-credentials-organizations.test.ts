/**
 * The client credentials grant for organizations: `organization` (id or
 * name) or the client's default_organization, by the client grant's
 * organization_usage and its links to organizations; org_id in the token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';

const API = 'https://m2m-orgs.example.com/';

describe('client credentials with organizations', () => {
  let t: TestApp;
  let org: { id: string; name: string };
  let otherOrg: { id: string; name: string };

  const api = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, { ...(body !== undefined && { body }) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.body}`);
    return res.body ? (res.json() as Record<string, unknown>) : {};
  };

  /** A machine client with a grant for the API of this organization_usage; its credentials and grant id. */
  async function machine(usage: 'deny' | 'allow' | 'require', extra: Record<string, unknown> = {}, grantExtra: Record<string, unknown> = {}) {
    const created = await api('POST', '/api/v2/clients', { name: `m2m ${usage}`, app_type: 'non_interactive', token_endpoint_auth_method: 'client_secret_post', grant_types: ['client_credentials'], ...extra });
    const grant = await api('POST', '/api/v2/client-grants', { client_id: created.client_id, audience: API, scope: ['read:reports'], organization_usage: usage, ...grantExtra });
    return { id: created.client_id as string, secret: created.client_secret as string, grantId: grant.id as string };
  }

  const token = (m: { id: string; secret: string }, extra: Record<string, string> = {}) =>
    tokenRequest(t.app, { grant_type: 'client_credentials', client_id: m.id, client_secret: m.secret, audience: API, ...extra });

  before(async () => {
    t = await createTestApp();
    await api('POST', '/api/v2/resource-servers', { identifier: API, scopes: [{ value: 'read:reports' }] });
    org = (await api('POST', '/api/v2/organizations', { name: 'm2m-acme' })) as { id: string; name: string };
    otherOrg = (await api('POST', '/api/v2/organizations', { name: 'm2m-other' })) as { id: string; name: string };
  });
  after(() => t.close());

  it('a linked grant gets org_id for the organization by id or name; an unlinked organization is refused', async () => {
    const m = await machine('allow');
    await api('POST', `/api/v2/organizations/${org.id}/client-grants`, { grant_id: m.grantId });
    for (const organization of [org.id, org.name]) {
      const res = await token(m, { organization });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(decodeJwt((res.json() as { access_token: string }).access_token).org_id, org.id);
    }
    const plain = await token(m);
    assert.equal(decodeJwt((plain.json() as { access_token: string }).access_token).org_id, undefined, 'allow: without one, none');
    const unlinked = await token(m, { organization: otherOrg.id });
    assert.equal(unlinked.statusCode, 403, unlinked.body);
    assert.equal((unlinked.json() as { error: string }).error, 'access_denied');
    assert.equal((await token(m, { organization: 'org_missing' })).statusCode, 400);
  });

  it('allow_any_organization needs no link; deny refuses an organization; require needs one, or the default organization', async () => {
    const any = await machine('allow', {}, { allow_any_organization: true });
    assert.equal((await token(any, { organization: otherOrg.id })).statusCode, 200);

    const denied = await machine('deny');
    const refused = await token(denied, { organization: org.id });
    assert.equal(refused.statusCode, 400);
    assert.equal((refused.json() as { error: string }).error, 'invalid_request');

    const required = await machine('require', { default_organization: { organization_id: org.id, flows: ['client_credentials'] } });
    await api('POST', `/api/v2/organizations/${org.id}/client-grants`, { grant_id: required.grantId });
    const byDefault = await token(required);
    assert.equal(byDefault.statusCode, 200, byDefault.body);
    assert.equal(decodeJwt((byDefault.json() as { access_token: string }).access_token).org_id, org.id);

    const requiredWithoutDefault = await machine('require');
    assert.equal((await token(requiredWithoutDefault)).statusCode, 400);
  });
});
