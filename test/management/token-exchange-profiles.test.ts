/**
 * Custom token exchange profiles in the Management API: CRUD as the service's
 * document says (201, `tep_` ids, millisecond timestamps, checkpoint paging),
 * and the refusals: another type, a reserved namespace, a subject_token_type
 * taken (409), an action that does not exist or is of another trigger, an
 * unknown profile (404), members that cannot change, scopes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('/api/v2/token-exchange-profiles', () => {
  let t: TestApp;
  let actionId: string;
  let postLoginId: string;
  const api = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token !== undefined && { token }) });
  const json = <T = any>(res: { json(): unknown }) => res.json() as T;

  before(async () => {
    t = await createTestApp();
    actionId = json(await api('POST', '/api/v2/actions/actions', { name: 'cte', supported_triggers: [{ id: 'custom-token-exchange' }], code: 'exports.onExecuteCustomTokenExchange = async () => {};' })).id;
    postLoginId = json(await api('POST', '/api/v2/actions/actions', { name: 'pl', supported_triggers: [{ id: 'post-login' }] })).id;
  });
  after(async () => t?.close());

  it('creates, reads, lists, changes and deletes a profile', async () => {
    const created = await api('POST', '/api/v2/token-exchange-profiles', { name: 'Legacy tokens', subject_token_type: 'https://acme.example/legacy-token', action_id: actionId, type: 'custom_authentication' });
    assert.equal(created.statusCode, 201, created.body);
    const profile = json(created);
    assert.match(profile.id, /^tep_[A-Za-z0-9]{16}$/);
    assert.match(profile.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'milliseconds');
    assert.deepEqual(json(await api('GET', `/api/v2/token-exchange-profiles/${profile.id}`)), profile);
    await api('POST', '/api/v2/token-exchange-profiles', { name: 'Second', subject_token_type: 'urn:acme:second', action_id: actionId, type: 'custom_authentication' });

    const first = json(await api('GET', '/api/v2/token-exchange-profiles?take=1'));
    assert.equal(first.token_exchange_profiles.length, 1);
    assert.ok(first.next);
    const rest = json(await api('GET', `/api/v2/token-exchange-profiles?take=1&from=${encodeURIComponent(first.next)}`));
    assert.equal(rest.token_exchange_profiles.length, 1);
    assert.notEqual(rest.token_exchange_profiles[0].id, first.token_exchange_profiles[0].id);
    const all = json(await api('GET', '/api/v2/token-exchange-profiles'));
    assert.equal(all.token_exchange_profiles.length, 2);
    assert.equal(all.next, undefined);

    const patched = json(await api('PATCH', `/api/v2/token-exchange-profiles/${profile.id}`, { name: 'Renamed', subject_token_type: 'https://acme.example/v2' }));
    assert.equal(patched.name, 'Renamed');
    assert.equal(patched.subject_token_type, 'https://acme.example/v2');
    assert.equal((await t.ctx.stores.tokenExchangeProfiles.bySubjectTokenType(t.tenant.id, 'https://acme.example/v2'))?.id, profile.id);
    assert.equal((await api('DELETE', `/api/v2/token-exchange-profiles/${profile.id}`)).statusCode, 204);
    assert.deepEqual(json(await api('GET', `/api/v2/token-exchange-profiles/${profile.id}`)), { statusCode: 404, error: 'Not Found', message: 'Token Exchange Profile not found.' });
  });

  it('refuses what the service refuses', async () => {
    const base = { name: 'Third', subject_token_type: 'https://acme.example/third', action_id: actionId, type: 'custom_authentication' };
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ ...base, type: 'other' }, 400, /Type field must be/],
      [{ ...base, subject_token_type: 'https://auth0.com/token' }, 400, /reserved namespace/],
      [{ ...base, subject_token_type: 'urn:ietf:params:oauth:token-type:jwt' }, 400, /reserved namespace/],
      [{ ...base, subject_token_type: 'not a uri at all' }, 400, /subject_token_type/],
      [{ ...base, subject_token_type: 'urn:acme:second' }, 409, /already exists/],
      [{ ...base, action_id: 'nope' }, 400, /does not exist/],
      [{ ...base, action_id: postLoginId }, 400, /custom-token-exchange/],
      [{ ...base, name: 'ab' }, 400, /name/],
      [{ ...base, extra: 1 }, 400, /extra|additional/i],
    ];
    for (const [body, status, message] of cases) {
      const res = await api('POST', '/api/v2/token-exchange-profiles', body);
      assert.equal(res.statusCode, status, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(json(res).message, message);
    }
    const second = json(await api('GET', '/api/v2/token-exchange-profiles')).token_exchange_profiles[0];
    assert.equal((await api('PATCH', `/api/v2/token-exchange-profiles/${second.id}`, { action_id: actionId })).statusCode, 400, 'the action cannot change');
    assert.equal((await api('PATCH', `/api/v2/token-exchange-profiles/${second.id}`, {})).statusCode, 400, 'at least one member');
    assert.equal((await api('PATCH', '/api/v2/token-exchange-profiles/tep_nope', { name: 'Whatever' })).statusCode, 404);
    const readOnly = await t.managementToken('read:token_exchange_profiles');
    assert.equal((await api('GET', '/api/v2/token-exchange-profiles', undefined, readOnly)).statusCode, 200);
    assert.equal((await api('POST', '/api/v2/token-exchange-profiles', base, readOnly)).statusCode, 403);
  });
});
