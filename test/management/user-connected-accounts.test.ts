/**
 * GET /api/v2/users/{id}/connected-accounts through the `auth0` SDK
 * (users.connectedAccounts.list): the token sets the token vault keeps for
 * the user that hold a refresh token (offline access), in the document's
 * shape, never a token; checkpoint paging; another user's never shown; the
 * refusals (unknown user 404, bad `take` 400, the scope 403).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManagementError } from 'auth0';
import { keepUpstreamTokens } from '../../src/domain/upstream-tokens/vault.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { connectionRow } from '../helpers/rows.js';

describe('user connected accounts', () => {
  let t: TestApp;
  let ann: string;
  let bob: string;
  const upstream: { id: string; name: string; strategy: string }[] = [];

  before(async () => {
    t = await createTestApp();
    const db = await t.management('POST', '/api/v2/connections', { body: { name: 'Username-Password-Authentication', strategy: 'auth0' } });
    assert.equal(db.statusCode, 201, db.body);
    const user = async (email: string) => {
      const res = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', email, password: 'Pa55word!x' } });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as { user_id: string }).user_id;
    };
    ann = await user('ann@example.com');
    bob = await user('bob@example.com');
    for (const [name, strategy] of [['google-vault', 'google-oauth2'], ['corp-oidc', 'oidc'], ['github-vault', 'github']] as const) {
      const row = connectionRow(t.tenant.id, { name, strategy });
      await t.ctx.stores.connections.insert(row, []);
      upstream.push({ id: row.id, name, strategy });
    }
    // Ann: two sets with refresh tokens, one without (not a connected account); Bob: one.
    await keepUpstreamTokens(t.ctx, t.tenant.id, ann, upstream[0]!, { access_token: 'ya29.ann-google', refresh_token: 'rt-ann-google', scope: 'openid email https://www.googleapis.com/auth/calendar' });
    await keepUpstreamTokens(t.ctx, t.tenant.id, ann, upstream[1]!, { access_token: 'at-ann-corp', refresh_token: 'rt-ann-corp' });
    await keepUpstreamTokens(t.ctx, t.tenant.id, ann, upstream[2]!, { access_token: 'at-ann-github' });
    await keepUpstreamTokens(t.ctx, t.tenant.id, bob, upstream[0]!, { access_token: 'ya29.bob', refresh_token: 'rt-bob', scope: 'openid' });
  });
  after(() => t.close());

  it("lists the user's connected accounts in the document's shape, without a token", async () => {
    const sdk = await inProcessSdk(t);
    const page = await sdk.users.connectedAccounts.list(ann);
    const accounts = page.data;
    assert.equal(accounts.length, 2);
    const sets = await t.ctx.stores.upstreamTokenSets.list(t.tenant.id, ann);
    const google = accounts.find((a) => a.connection === 'google-vault')!;
    assert.deepEqual(google, {
      id: sets.find((s) => s.connection === 'google-vault')!.id,
      connection: 'google-vault',
      connection_id: upstream[0]!.id,
      strategy: 'google-oauth2',
      access_type: 'offline',
      scopes: ['openid', 'email', 'https://www.googleapis.com/auth/calendar'],
      created_at: google.created_at,
    });
    assert.ok(!Number.isNaN(Date.parse(google.created_at)));
    const corp = accounts.find((a) => a.connection === 'corp-oidc')!;
    assert.equal(corp.strategy, 'oidc');
    assert.equal(corp.scopes, undefined);
    const raw = await t.management('GET', `/api/v2/users/${encodeURIComponent(ann)}/connected-accounts`);
    assert.doesNotMatch(raw.body, /rt-ann|at-ann|ya29/);
    const bobs = await sdk.users.connectedAccounts.list(bob);
    assert.deepEqual(bobs.data.map((a) => a.connection), ['google-vault']);
  });

  it('pages with checkpoints', async () => {
    const sdk = await inProcessSdk(t);
    const first = await sdk.users.connectedAccounts.list(ann, { take: 1 });
    assert.equal(first.data.length, 1);
    const firstId = first.data[0]!.id;
    assert.ok(first.hasNextPage());
    // The SDK's getNextPage moves the page itself on.
    const second = await first.getNextPage();
    assert.equal(second.data.length, 1);
    assert.notEqual(second.data[0]!.id, firstId);
    assert.equal(second.hasNextPage(), false);
    // A user with none: an empty list.
    const none = await t.management('POST', '/api/v2/users', { body: { connection: 'Username-Password-Authentication', email: 'cy@example.com', password: 'Pa55word!x' } });
    const empty = await t.management('GET', `/api/v2/users/${encodeURIComponent(none.json().user_id)}/connected-accounts`);
    assert.deepEqual(empty.json(), { connected_accounts: [] });
  });

  it('refuses an unknown user, a bad take, a forged checkpoint and a token without read:users', async () => {
    const sdk = await inProcessSdk(t);
    await assert.rejects(sdk.users.connectedAccounts.list('auth0|nobody'), (e: ManagementError) => e.statusCode === 404);
    const badTake = await t.management('GET', `/api/v2/users/${encodeURIComponent(ann)}/connected-accounts?take=0`);
    assert.equal(badTake.statusCode, 400);
    const forged = await t.management('GET', `/api/v2/users/${encodeURIComponent(ann)}/connected-accounts?from=zzz`);
    assert.equal(forged.statusCode, 400);
    assert.equal(forged.json().errorCode, 'invalid_query_string');
    // Bob's checkpoint does not page Ann's accounts.
    const bobNext = await t.management('GET', `/api/v2/users/${encodeURIComponent(ann)}/connected-accounts?take=1`);
    const replay = await t.management('GET', `/api/v2/users/${encodeURIComponent(bob)}/connected-accounts?take=1&from=${encodeURIComponent(bobNext.json().next)}`);
    assert.equal(replay.statusCode, 400);
    const refused = await t.management('GET', `/api/v2/users/${encodeURIComponent(ann)}/connected-accounts`, { token: await t.managementToken('read:clients') });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message, /read:users/);
  });
});
