// The SCIM 2.0 endpoint of a connection (/scim/v2/connections/{id}/…): Okta's and Entra ID's request shapes
// create, find, update, deactivate and delete users; the mapping makes their profile; refusals in SCIM's error
// shape (tokens, scopes, filters, paths, bodies) change nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { secretHash } from '../../src/domain/secrets.js';
import { isoAt } from '../../src/platform/clock.js';
import { ENTRA, OKTA } from '../fixtures/scim-requests.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { assertScimError, scimConnection, scimToken } from '../helpers/scim.js';


const postgresSkip = (await postgresAvailable()) ? false : 'PostgreSQL is not reachable';

for (const database of ['SQLite', 'PostgreSQL'] as const) describe(`/scim/v2/connections/{id} (${database})`, { skip: database === 'PostgreSQL' && postgresSkip }, () => {
  let t: TestApp;
  let connectionId: string;
  let otherId: string;
  let token: string;
  let otherToken: string;
  let readOnly: string;

  const createConnection = (name: string) => scimConnection(t, name);
  const issue = (id: string, scopes?: string[]) => scimToken(t, id, scopes);

  before(async () => {
    t = await createTestApp({ postgres: database === 'PostgreSQL' });
    connectionId = await createConnection('okta-corp');
    otherId = await createConnection('entra-corp');
    token = await issue(connectionId);
    readOnly = await issue(connectionId, ['get:users']);
    otherToken = await issue(otherId);
  });
  after(() => t.close());

  const scim = (method: string, path: string, options: { body?: unknown; token?: string | null; connection?: string; contentType?: string; raw?: string } = {}) =>
    t.app.inject({
      method: method as 'GET',
      url: `/scim/v2/connections/${options.connection ?? connectionId}${path}`,
      headers: {
        host: DOMAIN,
        ...(options.token !== null && { authorization: `Bearer ${options.token ?? token}` }),
        ...((options.body !== undefined || options.raw !== undefined) && { 'content-type': options.contentType ?? 'application/scim+json' }),
      },
      ...(options.raw !== undefined ? { payload: options.raw } : options.body !== undefined && { payload: JSON.stringify(options.body) }),
    });


  it('Okta: looks up, creates (password never kept), finds by filter, replaces, deactivates and reactivates', async () => {
    const none = await scim('GET', `/Users?${OKTA.lookupQuery}`);
    assert.equal(none.statusCode, 200, none.body);
    assert.deepEqual(none.json(), { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const created = await scim('POST', '/Users', { body: OKTA.create });
    assert.equal(created.statusCode, 201, created.body);
    assert.match(String(created.headers['content-type']), /^application\/scim\+json/);
    const user = created.json();
    assert.equal(user.id, 'oidc|okta-corp|00ujl29u0le5T6Aj10h7');
    assert.equal(user.userName, 'test.user@okta.local');
    assert.equal(user.active, true);
    assert.equal(user.password, undefined);
    assert.equal(created.headers.location, `https://${DOMAIN}/scim/v2/connections/${connectionId}/Users/${encodeURIComponent(user.id)}`);
    assert.equal(user.meta.location, created.headers.location);
    assert.ok(!JSON.stringify(await t.ctx.stores.scim.getUser(t.tenant.id, connectionId, user.id)).includes('1mz050nq'));

    // The profile, through the default mapping.
    const profile = (await t.management('GET', `/api/v2/users/${encodeURIComponent(user.id)}`)).json();
    assert.equal(profile.email, 'test.user@okta.local');
    assert.equal(profile.given_name, 'Test');
    assert.equal(profile.family_name, 'User');
    assert.equal(profile.name, 'Test User');
    assert.equal(profile.username, 'test.user@okta.local');
    assert.equal(profile.app_metadata.external_id, '00ujl29u0le5T6Aj10h7');
    assert.equal(profile.app_metadata.locale, 'en-US');
    assert.equal(profile.identities[0].connection, 'okta-corp');

    const found = (await scim('GET', `/Users?${OKTA.lookupQuery}`)).json();
    assert.equal(found.totalResults, 1);
    assert.equal(found.Resources[0].id, user.id);
    assert.equal((await scim('POST', '/Users', { body: OKTA.create })).statusCode, 409);
    assertScimError(await scim('POST', '/Users', { body: OKTA.create }), 409, 'uniqueness');

    const replaced = await scim('PUT', `/Users/${encodeURIComponent(user.id)}`, { body: OKTA.replace });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.json().name.givenName, 'Another');
    assert.equal(replaced.json().id, user.id);
    assert.equal((await t.ctx.stores.users.get(t.tenant.id, user.id))!.given_name, 'Another');

    // Deactivation blocks the user and ends their sessions, told to the clients by back-channel logout.
    const now = t.ctx.now();
    const relyingParty = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Relying party', oidc_logout: { backchannel_logout_urls: ['https://rp.example.com/backchannel'], backchannel_logout_initiators: { mode: 'all' } } },
    });
    assert.equal(relyingParty.statusCode, 201, relyingParty.body);
    const rpId = relyingParty.json().client_id as string;
    await t.ctx.stores.sessions.insert({ tenant_id: t.tenant.id, id_hash: secretHash('okta-session'), user_id: user.id, auth_time: Math.floor(now / 1000), created_at: isoAt(now), expires_at: isoAt(now + 3_600_000) });
    await t.ctx.stores.backchannelLogout.recordClient(t.tenant.id, secretHash('okta-session'), rpId, isoAt(now));
    const deactivated = await scim('PATCH', `/Users/${encodeURIComponent(user.id)}`, { body: OKTA.deactivate });
    assert.equal(deactivated.statusCode, 200, deactivated.body);
    assert.equal(deactivated.json().active, false);
    assert.equal((await t.ctx.stores.users.get(t.tenant.id, user.id))!.blocked, 1);
    assert.equal(await t.ctx.stores.sessions.findActive(t.tenant.id, secretHash('okta-session'), isoAt(t.ctx.now())), undefined);
    const deliveries = await t.ctx.stores.backchannelLogout.forClient(t.tenant.id, rpId);
    assert.deepEqual(deliveries.map((d) => [d.sub, d.sid, d.initiator]), [[user.id, secretHash('okta-session'), 'session-revoked']]);
    assert.equal((await scim('GET', `/Users/${encodeURIComponent(user.id)}`)).json().active, false);
    const reactivated = await scim('PATCH', `/Users/${encodeURIComponent(user.id)}`, { body: OKTA.reactivate });
    assert.equal(reactivated.json().active, true);
    assert.equal((await t.ctx.stores.users.get(t.tenant.id, user.id))!.blocked, 0);
  });

  it('Entra ID: creates, matches by userName, patches with capitalised ops and value filters, disables with "False", deletes', async () => {
    const entraToken = otherToken;
    assert.equal((await scim('GET', `/Users?${ENTRA.missingQuery}`, { connection: otherId, token: entraToken })).json().totalResults, 0);
    const created = await scim('POST', '/Users', { connection: otherId, token: entraToken, body: ENTRA.create });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().id as string;
    assert.equal(id, 'oidc|entra-corp|0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef');
    const found = (await scim('GET', `/Users?${ENTRA.lookupQuery}`, { connection: otherId, token: entraToken })).json();
    assert.deepEqual(found.Resources.map((r: { id: string }) => r.id), [id]);
    const byEmail = await scim('GET', `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "test_user_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com"')}`, { connection: otherId, token: entraToken });
    assert.equal(byEmail.json().totalResults, 1, byEmail.body);
    const byExternalId = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`, { connection: otherId, token: entraToken });
    assert.equal(byExternalId.json().totalResults, 1);

    const patched = await scim('PATCH', `/Users/${encodeURIComponent(id)}`, { connection: otherId, token: entraToken, body: ENTRA.update });
    assert.equal(patched.statusCode, 200, patched.body);
    const body = patched.json();
    assert.equal(body.emails[0].value, 'updatedEmail@microsoft.com');
    assert.equal(body.name.familyName, 'updatedFamilyName');
    assert.equal(body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'].department, 'Engineering');
    const user = (await t.ctx.stores.users.get(t.tenant.id, id))!;
    assert.equal(user.email, 'updatedEmail@microsoft.com');
    assert.equal(user.family_name, 'updatedFamilyName');
    assert.equal(user.app_metadata.department, 'Engineering');
    // A removed attribute leaves the profile too.
    const removed = await scim('PATCH', `/Users/${encodeURIComponent(id)}`, { connection: otherId, token: entraToken, body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Remove', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department' }] } });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal((await t.ctx.stores.users.get(t.tenant.id, id))!.app_metadata.department, undefined);

    const disabled = await scim('PATCH', `/Users/${encodeURIComponent(id)}`, { connection: otherId, token: entraToken, body: ENTRA.disable });
    assert.equal(disabled.statusCode, 200, disabled.body);
    assert.equal(disabled.json().active, false);
    assert.equal((await t.ctx.stores.users.get(t.tenant.id, id))!.blocked, 1);

    assert.equal((await scim('DELETE', `/Users/${encodeURIComponent(id)}`, { connection: otherId, token: entraToken })).statusCode, 204);
    assert.equal(await t.ctx.stores.users.get(t.tenant.id, id), undefined);
    assertScimError(await scim('GET', `/Users/${encodeURIComponent(id)}`, { connection: otherId, token: entraToken }), 404);
  });

  it('describes itself: ServiceProviderConfig, ResourceTypes, Schemas', async () => {
    const config = (await scim('GET', '/ServiceProviderConfig')).json();
    assert.equal(config.patch.supported, true);
    assert.equal(config.filter.supported, true);
    assert.equal(config.bulk.supported, false);
    const types = (await scim('GET', '/ResourceTypes')).json();
    assert.deepEqual(types.Resources.map((r: { id: string }) => r.id), ['User', 'Group']);
    assert.equal((await scim('GET', '/ResourceTypes/Group')).json().endpoint, '/Groups');
    const schemas = (await scim('GET', '/Schemas')).json();
    assert.deepEqual(schemas.Resources.map((r: { id: string }) => r.id), [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      'urn:ietf:params:scim:schemas:core:2.0:Group',
    ]);
    assertScimError(await scim('GET', '/Bulk'), 404);
  });

  it('pages with startIndex and count, count clamped to 100', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await scim('POST', '/Users', { body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `page${i}@corp.example`, externalId: `page-${i}`, emails: [{ primary: true, value: `page${i}@corp.example` }] } });
      assert.equal(res.statusCode, 201, res.body);
    }
    const page = (await scim('GET', '/Users?startIndex=2&count=2')).json();
    assert.equal(page.startIndex, 2);
    assert.equal(page.itemsPerPage, 2);
    assert.ok(page.totalResults >= 5);
    const all = (await scim('GET', '/Users?count=100000')).json();
    assert.equal(all.itemsPerPage, all.totalResults);
    assert.ok(all.itemsPerPage <= 100);
    const none = (await scim('GET', '/Users?count=0')).json();
    assert.equal(none.itemsPerPage, 0);
    assert.equal(none.totalResults, all.totalResults);
  });

  it('refuses a missing, unknown, expired or deleted token with 401, another connection\'s or an unscoped one with 403, changing nothing', async () => {
    const before = (await scim('GET', '/Users?count=100')).json().totalResults;
    const body = { userName: 'refused@corp.example', externalId: 'refused' };
    assertScimError(await scim('POST', '/Users', { token: null, body }), 401);
    assertScimError(await scim('POST', '/Users', { token: 'not-a-token', body }), 401);
    assertScimError(await scim('POST', '/Users', { token: otherToken, body }), 403);
    assertScimError(await scim('POST', '/Users', { token: readOnly, body }), 403);
    assert.equal((await scim('GET', '/Users', { token: readOnly })).statusCode, 200);
    const used = (await t.management('GET', `/api/v2/connections/${connectionId}/scim-configuration/tokens`)).json();
    assert.ok(used.every((item: { last_used_at?: string }) => typeof item.last_used_at === 'string'));
    const tokens = (await t.management('GET', `/api/v2/connections/${connectionId}/scim-configuration/tokens`)).json();
    const readOnlyId = tokens.find((item: { scopes: string[] }) => item.scopes.length === 1).token_id;
    assert.equal((await t.management('DELETE', `/api/v2/connections/${connectionId}/scim-configuration/tokens/${readOnlyId}`)).statusCode, 204);
    assertScimError(await scim('GET', '/Users', { token: readOnly }), 401);
    const lived = (await t.management('POST', `/api/v2/connections/${connectionId}/scim-configuration/tokens`, { body: { token_lifetime: 901 } })).json();
    const now = Date.now();
    const clock = t.ctx as unknown as { now: () => number };
    const original = clock.now;
    clock.now = () => now + 902_000;
    try {
      assertScimError(await scim('GET', '/Users', { token: lived.token }), 401);
    } finally {
      clock.now = original;
    }
    assert.equal((await scim('GET', '/Users?count=100')).json().totalResults, before);
  });

  it('refuses malformed and unindexed filters, unknown PATCH paths, bad bodies and bodies over 1 MiB', async () => {
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter');
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('((bad')}`), 400, 'invalidFilter');
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName sw "a"')}`), 400, 'invalidFilter');
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('title eq "x"')}`), 400, 'invalidFilter');
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "a" or title eq "x"')}`), 400, 'invalidFilter');

    const created = (await scim('POST', '/Users', { body: { userName: 'paths@corp.example', externalId: 'paths' } })).json();
    const url = `/Users/${encodeURIComponent(created.id)}`;
    const op = (operation: Record<string, unknown>) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [operation] });
    assertScimError(await scim('PATCH', url, { body: op({ op: 'replace', path: 'favouriteColour', value: 'red' }) }), 400, 'invalidPath');
    assertScimError(await scim('PATCH', url, { body: op({ op: 'replace', path: 'name.nickname', value: 'x' }) }), 400, 'invalidPath');
    assertScimError(await scim('PATCH', url, { body: op({ op: 'replace', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:salary', value: '1' }) }), 400, 'invalidPath');
    assertScimError(await scim('PATCH', url, { body: op({ op: 'replace', value: { favouriteColour: 'red' } }) }), 400, 'invalidPath');
    assertScimError(await scim('PATCH', url, { body: op({ op: 'move', path: 'title', value: 'x' }) }), 400, 'invalidSyntax');
    assertScimError(await scim('PATCH', url, { body: { Operations: [{ op: 'replace', path: 'title', value: 'x' }] } }), 400, 'invalidSyntax');
    assertScimError(await scim('PATCH', url, { body: op({ op: 'replace', path: 'active', value: 'maybe' }) }), 400, 'invalidValue');
    assert.equal((await scim('GET', url)).json().title, undefined);

    assertScimError(await scim('POST', '/Users', { body: { externalId: 'no-user-name' } }), 400, 'invalidValue');
    assertScimError(await scim('POST', '/Users', { body: { userName: 'no-external-id@corp.example' } }), 400, 'invalidValue');
    assertScimError(await scim('POST', '/Users', { raw: '{"userName": ' }), 400, 'invalidSyntax');
    assertScimError(await scim('POST', '/Users', { raw: JSON.stringify({ userName: 'big@corp.example', externalId: 'big', title: 'x'.repeat(1_100_000) }) }), 413);
    assertScimError(await scim('POST', '/Users', { body: { userName: 'large@corp.example', externalId: 'large', roles: [{ value: 'x'.repeat(70_000) }] } }), 413);
    assert.equal((await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "big@corp.example"')}`)).json().totalResults, 0);
  });

  it('answers odd input with a SCIM 4xx, never a 500', async () => {
    const created = (await scim('POST', '/Users', { body: { userName: 'odd@corp.example', externalId: 'odd' } })).json();
    const url = `/Users/${encodeURIComponent(created.id)}`;
    const op = (...operations: unknown[]) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: operations });
    const cases: [string, string, unknown, string][] = [
      ['PATCH', url, op({ op: 'replace', path: 'name', value: 'flat' }, { op: 'replace', value: { 'name.givenName': 'X' } }), 'invalidValue'],
      ['PATCH', url, op({ op: 'replace', path: 'emails[type eq ', value: 'x' }), 'invalidValue'],
      ['PATCH', url, op({ op: 'remove', path: 'userName' }), 'invalidValue'],
      ['PATCH', url, op({ op: 'replace', path: 'displayName', value: { a: 1 } }), 'invalidValue'],
      ['PATCH', url, op('x'), 'invalidSyntax'],
      ['PUT', url, [], 'invalidSyntax'],
      ['POST', '/Users', { userName: ['x'], externalId: 'x' }, 'invalidValue'],
      ['POST', '/Users', { userName: 'x', externalId: 5 }, 'invalidValue'],
      ['GET', '/Users?startIndex=abc', undefined, 'invalidValue'],
      ['GET', `/Users?filter=${encodeURIComponent('userName eq 5')}`, undefined, 'invalidFilter'],
    ];
    for (const [method, path, body, scimType] of cases) assertScimError(await scim(method, path, { body }), 400, scimType);
    assert.equal((await scim('GET', url)).json().userName, 'odd@corp.example');
  });

  it('users created, replaced and deleted through SCIM are announced to event streams', async () => {
    const stream = await t.management('POST', '/api/v2/event-streams', {
      body: {
        subscriptions: ['user.created', 'user.updated', 'user.deleted'].map((event_type) => ({ event_type })),
        destination: { type: 'webhook', configuration: { webhook_endpoint: 'https://hooks.example.com/scim', webhook_authorization: { method: 'bearer', token: 't' } } },
      },
    });
    assert.equal(stream.statusCode, 201, stream.body);
    const created = (await scim('POST', '/Users', { body: { userName: 'events@corp.example', externalId: 'events', name: { givenName: 'Eve' } } })).json();
    const url = `/Users/${encodeURIComponent(created.id)}`;
    assert.equal((await scim('PUT', url, { body: { userName: 'events@corp.example', externalId: 'events', name: { givenName: 'Evelyn' } } })).statusCode, 200);
    assert.equal((await scim('DELETE', url)).statusCode, 204);
    const queued = (await t.ctx.stores.eventStreams.claimDue(isoAt(t.ctx.now() + 1000), isoAt(t.ctx.now() + 60_000), 100)).filter((d) => d.stream_id === stream.json().id);
    assert.deepEqual(queued.map((d) => d.event_type).sort(), ['user.created', 'user.deleted', 'user.updated']);
    assert.ok(queued.every((d) => d.event.data.object.user_id === created.id));
    assert.equal(queued.find((d) => d.event_type === 'user.updated')!.event.data.object.given_name, 'Evelyn');
  });
});
