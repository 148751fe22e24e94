/**
 * /api/v2/organizations/{id}/discovery-domains through the real app and
 * database: create (lower-cased, pending by default, a verification record),
 * list with checkpoint paging, get by id and by name, update, delete; a domain
 * verified for one organization of the tenant only; refusals (bad domain,
 * unknown property, unknown organization, duplicate, scope).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('/api/v2/organizations/{id}/discovery-domains', () => {
  let t: TestApp;
  let acme: string;
  let globex: string;
  const api = (method: string, url: string, body?: unknown) => t.management(method, url, { ...(body !== undefined && { body }) });
  const base = (org: string) => `/api/v2/organizations/${org}/discovery-domains`;

  before(async () => {
    t = await createTestApp();
    acme = ((await api('POST', '/api/v2/organizations', { name: 'acme' })).json() as { id: string }).id;
    globex = ((await api('POST', '/api/v2/organizations', { name: 'globex' })).json() as { id: string }).id;
  });
  after(() => t.close());

  it('creates, reads, lists, updates and deletes a domain in the document\'s shape', async () => {
    const created = await api('POST', base(acme), { domain: 'Acme.Example.COM' });
    assert.equal(created.statusCode, 201, created.body);
    const domain = created.json() as Record<string, unknown>;
    assert.match(domain.id as string, /^ordd_/);
    assert.deepEqual(Object.keys(domain), ['id', 'domain', 'status', 'use_for_organization_discovery', 'verification_txt', 'verification_host']);
    assert.equal(domain.domain, 'acme.example.com');
    assert.equal(domain.status, 'pending');
    assert.equal(domain.use_for_organization_discovery, true);
    assert.equal(domain.verification_host, '_gatehouse-challenge.acme.example.com');
    assert.match(domain.verification_txt as string, /^gatehouse-domain-verification=\w{32}$/);

    assert.deepEqual((await api('GET', `${base(acme)}/${domain.id}`)).json(), domain);
    assert.deepEqual((await api('GET', `${base(acme)}/name/ACME.example.com`)).json(), domain);
    assert.equal((await api('GET', `${base(globex)}/${domain.id}`)).statusCode, 404, 'another organization\'s domain');

    const updated = await api('PATCH', `${base(acme)}/${domain.id}`, { status: 'verified', use_for_organization_discovery: false });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual(updated.json(), { ...domain, status: 'verified', use_for_organization_discovery: false });

    assert.equal((await api('DELETE', `${base(acme)}/${domain.id}`)).statusCode, 204);
    assert.equal((await api('GET', `${base(acme)}/${domain.id}`)).statusCode, 404);
    assert.equal((await api('DELETE', `${base(acme)}/${domain.id}`)).statusCode, 404);
  });

  it('lists with checkpoint paging: {domains, next}, next absent on the last page', async () => {
    const org = ((await api('POST', '/api/v2/organizations', { name: 'paged' })).json() as { id: string }).id;
    for (const name of ['a.example', 'b.example', 'c.example']) assert.equal((await api('POST', base(org), { domain: name })).statusCode, 201);
    const first = (await api('GET', `${base(org)}?take=2`)).json() as { domains: { domain: string }[]; next?: string };
    assert.equal(first.domains.length, 2);
    assert.ok(first.next);
    const second = (await api('GET', `${base(org)}?take=2&from=${encodeURIComponent(first.next)}`)).json() as { domains: { domain: string }[]; next?: string };
    assert.equal(second.domains.length, 1);
    assert.equal(second.next, undefined);
    assert.deepEqual([...first.domains, ...second.domains].map((d) => d.domain).sort(), ['a.example', 'b.example', 'c.example']);
  });

  it('a domain is verified for one organization of the tenant only; pending in several is allowed', async () => {
    const mine = (await api('POST', base(acme), { domain: 'shared.example', status: 'verified' })).json() as { id: string };
    const theirs = await api('POST', base(globex), { domain: 'shared.example' });
    assert.equal(theirs.statusCode, 201, 'pending elsewhere is fine');
    const verify = await api('PATCH', `${base(globex)}/${(theirs.json() as { id: string }).id}`, { status: 'verified' });
    assert.equal(verify.statusCode, 409, verify.body);
    assert.match((verify.json() as { message: string }).message, /already verified for another organization/);
    const direct = await api('POST', base(globex), { domain: 'other-shared.example', status: 'verified' });
    assert.equal(direct.statusCode, 201);
    const again = await api('POST', `/api/v2/organizations/${acme}/discovery-domains`, { domain: 'other-shared.example', status: 'verified' });
    assert.equal(again.statusCode, 409);
    // Once the first organization lets it go, the other may verify it.
    assert.equal((await api('PATCH', `${base(acme)}/${mine.id}`, { status: 'pending' })).statusCode, 200);
    assert.equal((await api('PATCH', `${base(globex)}/${(theirs.json() as { id: string }).id}`, { status: 'verified' })).statusCode, 200);
  });

  it('refuses a duplicate, a malformed domain, unknown properties, an unknown organization, a token without the scope', async () => {
    assert.equal((await api('POST', base(acme), { domain: 'dup.example' })).statusCode, 201);
    const duplicate = await api('POST', base(acme), { domain: 'DUP.example' });
    assert.equal(duplicate.statusCode, 409);
    assert.equal((duplicate.json() as { message: string }).message, 'An organization discovery domain with this domain is already registered to this organization.');
    for (const body of [{ domain: 'no spaces.example' }, { domain: 'a@b.example' }, { domain: 'x'.repeat(256) }, { domain: '-bad.example' }, { domain: 'ok.example', status: 'done' }, { domain: 'ok.example', extra: 1 }, {}]) {
      const res = await api('POST', base(acme), body);
      assert.equal(res.statusCode, 400, JSON.stringify(body));
      assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body');
    }
    const unknown = await api('POST', base('org_missing'), { domain: 'fine.example' });
    assert.equal(unknown.statusCode, 404);
    assert.equal((await api('GET', base('org_missing'))).statusCode, 404);
    const token = await t.managementToken('read:organizations');
    const forbidden = await t.management('GET', base(acme), { token });
    assert.equal(forbidden.statusCode, 403);
    assert.match((forbidden.json() as { message: string }).message, /read:organization_discovery_domains/);
  });

  it('an organization\'s domains go with it', async () => {
    const org = ((await api('POST', '/api/v2/organizations', { name: 'short-lived' })).json() as { id: string }).id;
    assert.equal((await api('POST', base(org), { domain: 'gone.example', status: 'verified' })).statusCode, 201);
    assert.equal((await api('DELETE', `/api/v2/organizations/${org}`)).statusCode, 204);
    assert.equal((await api('POST', base(acme), { domain: 'gone.example', status: 'verified' })).statusCode, 201, 'the verified domain is free again');
  });
});
