/**
 * Social connections through the Management API (the real app and
 * database): each strategy's options checked and stored with the `scope`
 * the service computes from the flags, `client_secret` returned as the
 * service does, PATCH replacing the options and computing the scope again,
 * and bad options refused with the service's 400.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';

const invalid = (message: string) => ({ statusCode: 400, error: 'Bad Request', message: `Payload validation error: '${message}`, errorCode: 'invalid_body' });

describe('social connections in the Management API', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('stores each strategy with its computed scope, and returns client_secret', async () => {
    const cases: [string, Record<string, unknown>, unknown][] = [
      ['google-oauth2', { client_id: 'g', client_secret: 'gs', youtube: true, freeform_scopes: ['https://www.googleapis.com/auth/contacts.readonly'] }, ['email', 'profile', 'https://gdata.youtube.com', 'https://www.googleapis.com/auth/contacts.readonly']],
      ['github', { client_id: 'h', client_secret: 'hs', email: true, repo_status: true, admin_org: true, profile: true }, ['user:email', 'repo:status', 'admin:org']],
      ['apple', { client_id: 'com.example', app_secret: '-----BEGIN PRIVATE KEY-----\nMIG…\n-----END PRIVATE KEY-----', kid: 'K', team_id: 'T', name: true, email: true }, 'name email'],
      ['windowslive', { client_id: 'w', client_secret: 'ws', offline_access: true }, ['https://graph.microsoft.com/User.Read', 'offline_access']],
      ['facebook', { client_id: 'f', client_secret: 'fs', email: true, groups_access_member_info: true, user_birthday: true, public_profile: true }, 'email,groups_access_member_info,user_birthday,public_profile'],
      ['linkedin', { client_id: 'l', client_secret: 'ls', email: true, basic_profile: true, strategy_version: 2 }, ['r_emailaddress', 'r_liteprofile', 'r_basicprofile']],
    ];
    for (const [strategy, options, scope] of cases) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name: `${strategy}-one`, strategy, options } });
      assert.equal(res.statusCode, 201, res.body);
      const created = res.json() as { id: string; options: Record<string, unknown> };
      assert.deepEqual(created.options.scope, scope, strategy);
      const read = (await t.management('GET', `/api/v2/connections/${created.id}`)).json() as { options: Record<string, unknown> };
      assert.deepEqual(read.options, { ...options, scope }, `${strategy}: the options as sent, secrets included, with the computed scope`);
    }
  });

  it('PATCH replaces the options and computes the scope again', async () => {
    const created = (await t.management('POST', '/api/v2/connections', { body: { name: 'github-two', strategy: 'github', options: { client_id: 'a', client_secret: 'b', email: true } } })).json() as { id: string };
    const res = await t.management('PATCH', `/api/v2/connections/${created.id}`, { body: { options: { client_id: 'a', client_secret: 'c', gist: true } } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual((res.json() as { options: unknown }).options, { client_id: 'a', client_secret: 'c', gist: true, scope: ['gist'] });
  });

  it('PATCH options without the secret keep the stored one (auth0-deploy-cli drops the secrets it exported as placeholders); null options clear everything', async () => {
    const created = (await t.management('POST', '/api/v2/connections', { body: { name: 'apple-two', strategy: 'apple', options: { client_id: 'a', app_secret: 'PEM', kid: 'K', team_id: 'T' } } })).json() as { id: string };
    const kept = await t.management('PATCH', `/api/v2/connections/${created.id}`, { body: { options: { client_id: 'b', kid: 'K2', team_id: 'T' } } });
    assert.deepEqual((kept.json() as { options: unknown }).options, { client_id: 'b', kid: 'K2', team_id: 'T', app_secret: 'PEM', scope: '' });
    const cleared = await t.management('PATCH', `/api/v2/connections/${created.id}`, { body: { options: null } });
    assert.deepEqual((cleared.json() as { options: unknown }).options, { scope: '' });
  });

  it('refuses bad options with the service\'s 400', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['github', { client_id: 'a', email: 'yes' }, "must be a boolean' on property options.email."],
      ['google-oauth2', { client_id: 'x'.repeat(256) }, "must be a string of at most 255 characters' on property options.client_id."],
      ['apple', { client_id: 'a', app_secret: 42 }, "must be a string of at most 5120 characters' on property options.app_secret."],
      ['facebook', { freeform_scopes: 'email' }, "must be a list of at most 100 scopes' on property options.freeform_scopes."],
      ['windowslive', { set_user_root_attributes: 'always' }, "must be one of on_each_login, on_first_login, never_on_login' on property options.set_user_root_attributes."],
      ['linkedin', { upstream_params: { screen_name: { alias: 'password' } } }, "screen_name must be {\"value\": a string} or {\"alias\": one of acr_values, audience, client_id, display, id_token_hint, login_hint, max_age, prompt, resource, response_mode, response_type, ui_locales}' on property options.upstream_params."],
      ['github', { icon_url: 'http://icons.example/g.png' }, "must be an https URL of at most 255 characters' on property options.icon_url."],
    ];
    for (const [strategy, options, message] of cases) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name: `bad-${strategy}`, strategy, options } });
      assert.deepEqual(res.json(), invalid(message), `${strategy} ${JSON.stringify(options)}`);
    }
    const list = (await t.management('GET', '/api/v2/connections?name=bad-github')).json() as unknown[];
    assert.deepEqual(list, [], 'nothing stored');
  });
});
