/**
 * The refresh-token store's contract against SQLite and PostgreSQL (a fresh
 * database, dropped afterwards), on migrated schemas: found in any state,
 * rotated exactly once (also under concurrency), touched only while not
 * revoked, revoked by family, scoped by tenant, removed with the user.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { type Db } from '../../src/storage/database.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { fullUserId, newUserIdPart } from '../../src/domain/users/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { newRefreshToken, secretHash } from '../../src/domain/secrets.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';

const T0 = '2024-01-01T00:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

await forEachStoreFactory('refresh-token storage', (h) => {
  // Tenants and users are seeded, a user removed and its tokens counted, in SQL.
  let db: Db;
  let tokens: Stores['refreshTokens'];
  before(() => {
    db = h.db();
    tokens = h.stores().refreshTokens;
  });

  /** A tenant with one connection and one user, per case. */
  async function tenantWithUser(): Promise<{ tenantId: string; userId: string }> {
    const tenantId = newPrefixedId('ten');
    const name = `t-${randomString(10).toLowerCase()}`;
    await db.insertInto('tenants').values({ id: tenantId, name, domain: `${name}.example.test`, settings: '{}', created_at: T0 }).execute();
    const connectionId = newPrefixedId('con');
    await db.insertInto('connections').values({ tenant_id: tenantId, id: connectionId, name: 'db', display_name: null, strategy: 'auth0', options: '{}', is_domain_connection: 0, realms: '[]', metadata: '{}', created_at: T0, updated_at: T0 }).execute();
    const userId = fullUserId(newUserIdPart());
    await db.insertInto('users').values({
      tenant_id: tenantId, user_id: userId, connection_id: connectionId, email: 'a@example.com', email_lower: 'a@example.com', email_verified: 0,
      username: null, username_lower: null, phone_number: null, phone_verified: 0, password_hash: null, blocked: 0, name: null, given_name: null,
      family_name: null, nickname: null, picture: null, app_metadata: '{}', user_metadata: '{}', created_at: T0, updated_at: T0,
      last_login: null, last_password_reset: null, logins_count: 0,
    }).execute();
    return { tenantId, userId };
  }

  async function issue(tenantId: string, userId: string, familyId = newPrefixedId('rtf', 24), extra: { client_id?: string; created_at?: string; expires_at?: string } = {}): Promise<string> {
    const hash = secretHash(newRefreshToken());
    await tokens.insert({
      tenant_id: tenantId, id_hash: hash, family_id: familyId, client_id: 'client-a', user_id: userId, audience: null,
      scope: 'openid offline_access', created_at: T0, expires_at: at(3600), idle_expires_at: at(600), last_used_at: T0, ...extra,
    });
    return hash;
  }

  it('revokeBeyond keeps the newest active tokens of a user and client, revoking the families of the older ones', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const family = newPrefixedId('rtf', 24);
    // The oldest family: a rotated token and its successor, the active one.
    const rotatedAway = await issue(tenantId, userId, family, { created_at: at(1) });
    await tokens.rotate(tenantId, rotatedAway, at(2));
    const oldest = await issue(tenantId, userId, family, { created_at: at(2) });
    const newer = [];
    for (let i = 0; i < 3; i++) newer.push(await issue(tenantId, userId, undefined, { created_at: at(10 + i) }));
    // Not counted: an expired token, a revoked one, another client's, another user's.
    const expired = await issue(tenantId, userId, undefined, { created_at: at(0), expires_at: at(5) });
    const revoked = await issue(tenantId, userId, undefined, { created_at: at(0) });
    await tokens.revokeFamily(tenantId, (await tokens.find(tenantId, revoked))!.family_id, at(3));
    const otherClient = await issue(tenantId, userId, undefined, { client_id: 'client-b', created_at: at(0) });

    assert.equal(await tokens.revokeBeyond(tenantId, userId, 'client-a', 4, at(20)), 0, 'four active: nothing revoked');
    const latest = await issue(tenantId, userId, undefined, { created_at: at(20) });
    assert.equal(await tokens.revokeBeyond(tenantId, userId, 'client-a', 4, at(21)), 2, 'the oldest family, both its tokens');
    assert.equal((await tokens.find(tenantId, oldest))?.revoked_at, at(21));
    assert.equal((await tokens.find(tenantId, rotatedAway))?.revoked_at, at(21));
    for (const hash of [...newer, latest, otherClient, expired]) assert.equal((await tokens.find(tenantId, hash))?.revoked_at, null);
    assert.equal(await tokens.revokeBeyond(tenantId, userId, 'client-a', 4, at(22)), 0);
  });

  it('finds a token in any state, and rotates it exactly once', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    const found = await tokens.find(tenantId, hash);
    assert.equal(found?.user_id, userId);
    assert.equal(found?.rotated_at, null);
    assert.equal(found?.revoked_at, null);
    assert.equal(found?.expires_at, at(3600));
    const rotated = await tokens.rotate(tenantId, hash, at(10));
    assert.equal(rotated?.rotated_at, at(10));
    assert.equal(rotated?.family_id, found?.family_id);
    assert.equal(await tokens.rotate(tenantId, hash, at(11)), undefined);
    assert.equal((await tokens.find(tenantId, hash))?.rotated_at, at(10), 'a rotated token is still found');
  });

  it('lets exactly one of concurrent rotations win', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    const results = await Promise.all(Array.from({ length: 8 }, () => tokens.rotate(tenantId, hash, at(5))));
    assert.equal(results.filter((r) => r !== undefined).length, 1);
  });

  it('touches a token until it is revoked; revoking a family revokes each of its tokens once', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const family = newPrefixedId('rtf', 24);
    const first = await issue(tenantId, userId, family);
    const second = await issue(tenantId, userId, family);
    const other = await issue(tenantId, userId);
    assert.equal(await tokens.touch(tenantId, first, at(20), at(620)), true);
    const touched = await tokens.find(tenantId, first);
    assert.equal(touched?.last_used_at, at(20));
    assert.equal(touched?.idle_expires_at, at(620));

    assert.equal(await tokens.revokeFamily(tenantId, family, at(30)), 2);
    assert.equal(await tokens.revokeFamily(tenantId, family, at(31)), 0);
    assert.equal((await tokens.find(tenantId, second))?.revoked_at, at(30));
    assert.equal(await tokens.touch(tenantId, first, at(40), null), false);
    assert.equal(await tokens.rotate(tenantId, second, at(40)), undefined, 'a revoked token is not rotated');
    assert.equal((await tokens.find(tenantId, other))?.revoked_at, null, 'other families are untouched');
  });

  it('is scoped by tenant', async () => {
    const a = await tenantWithUser();
    const b = await tenantWithUser();
    const hash = await issue(a.tenantId, a.userId);
    const row = (await tokens.find(a.tenantId, hash))!;
    assert.equal(await tokens.find(b.tenantId, hash), undefined);
    assert.equal(await tokens.rotate(b.tenantId, hash, at(1)), undefined);
    assert.equal(await tokens.touch(b.tenantId, hash, at(1), null), false);
    assert.equal(await tokens.revokeFamily(b.tenantId, row.family_id, at(1)), 0);
    assert.ok(await tokens.rotate(a.tenantId, hash, at(1)));
  });

  it('refuses a duplicate hash and an unknown user; tokens go with their user', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    const row = (await tokens.find(tenantId, hash))!;
    const { rotated_at: _r, revoked_at: _v, ...insertable } = row;
    await assert.rejects(tokens.insert(insertable), (error: unknown) => isUniqueViolation(error));
    await assert.rejects(tokens.insert({ ...insertable, id_hash: secretHash(newRefreshToken()), user_id: 'auth0|missing' }));
    await db.deleteFrom('users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
    assert.equal((await db.selectFrom('refresh_tokens').select('id_hash').where('tenant_id', '=', tenantId).execute()).length, 0);
  });

  it('stores only the hash; tokens are v1. and 43 base64url characters', () => {
    const token = newRefreshToken();
    assert.match(token, /^v1\.[A-Za-z0-9_-]{43}$/);
    assert.match(secretHash(token), /^[A-Za-z0-9_-]{43}$/);
  });
});
