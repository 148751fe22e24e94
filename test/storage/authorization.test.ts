/**
 * The authorization stores' contract (sessions, authorization requests,
 * codes) against SQLite and PostgreSQL (a fresh database, dropped
 * afterwards), on migrated schemas: active until expiry or revocation,
 * consumed exactly once (also under concurrency), scoped by tenant, removed
 * with the user.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { type Db } from '../../src/storage/database.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { fullUserId, newUserIdPart } from '../../src/domain/users/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { newSecret, secretHash } from '../../src/domain/secrets.js';

const T0 = '2024-01-01T00:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

await forEachStoreFactory('authorization storage', (h) => {
  // Tenants and users are seeded, and a user removed, in SQL.
  let db: Db;
  let codes: Stores['authorizationCodes'];
  let sessions: Stores['sessions'];
  let requests: Stores['authorizeTransactions'];
  before(() => {
    db = h.db();
    ({ authorizationCodes: codes, sessions, authorizeTransactions: requests } = h.stores());
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

  async function newCode(tenantId: string, userId: string, expiresIn = 60): Promise<string> {
    const hash = secretHash(newSecret());
    await codes.insert({
      tenant_id: tenantId, code_hash: hash, client_id: 'client', user_id: userId, redirect_uri: 'https://app.example.com/cb', scope: 'openid',
      audience: null, nonce: 'n', code_challenge: null, code_challenge_method: null, session_id: 'sid', auth_time: 1, expires_at: at(expiresIn),
    });
    return hash;
  }

  it('codes: found in any state, consumed exactly once (also concurrently), recording the refresh family', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await newCode(tenantId, userId);
    assert.equal((await codes.find(tenantId, hash))?.used_at, null);
    const results = await Promise.all([codes.consume(tenantId, hash, at(1), 'rtf_a'), codes.consume(tenantId, hash, at(1), 'rtf_b')]);
    assert.deepEqual(results.filter(Boolean).length, 1);
    const used = await codes.find(tenantId, hash);
    assert.equal(used?.used_at, at(1));
    assert.equal(used?.refresh_family_id, results[0] ? 'rtf_a' : 'rtf_b');
    assert.equal(await codes.consume(tenantId, hash, at(2), 'rtf_c'), false);
    const { tenantId: other } = await tenantWithUser();
    assert.equal(await codes.find(other, hash), undefined, 'scoped by tenant');
  });

  it('codes: an expired code is not consumed; codes go with their user', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await newCode(tenantId, userId, 60);
    assert.equal(await codes.consume(tenantId, hash, at(60), 'rtf_x'), false);
    await db.deleteFrom('users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
    assert.equal(await codes.find(tenantId, hash), undefined);
  });

  it('sessions: revokeBeyond keeps the newest active ones and returns those it ended', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const other = await tenantWithUser();
    const start = async (tenant: string, user: string, createdAt: number, expiresAt = 3600) => {
      const hash = secretHash(newSecret());
      await sessions.insert({ tenant_id: tenant, id_hash: hash, user_id: user, auth_time: 1, created_at: at(createdAt), expires_at: at(expiresAt) });
      return hash;
    };
    const expired = await start(tenantId, userId, 0, 5);
    const revoked = await start(tenantId, userId, 1);
    await sessions.revoke(tenantId, revoked, at(2));
    const hashes = [];
    for (let i = 0; i < 5; i++) hashes.push(await start(tenantId, userId, 10 + i));
    const elsewhere = await start(other.tenantId, other.userId, 0);

    assert.deepEqual(await sessions.revokeBeyond(tenantId, userId, 5, at(20)), [], 'five active: none ended (expired and revoked ones do not count)');
    const sixth = await start(tenantId, userId, 20);
    const ended = await sessions.revokeBeyond(tenantId, userId, 5, at(21));
    assert.deepEqual(ended, [{ tenant_id: tenantId, id_hash: hashes[0], user_id: userId }], 'the oldest active one');
    assert.equal(await sessions.findActive(tenantId, hashes[0]!, at(22)), undefined);
    for (const hash of [...hashes.slice(1), sixth]) assert.ok(await sessions.findActive(tenantId, hash, at(22)));
    assert.equal((await db.selectFrom('sessions').select('revoked_at').where('id_hash', '=', expired).executeTakeFirstOrThrow()).revoked_at, null, 'an expired one is left as it is');
    assert.deepEqual(await sessions.revokeBeyond(tenantId, userId, 5, at(23)), []);
    assert.ok(await sessions.findActive(other.tenantId, elsewhere, at(22)), 'other tenants untouched');
  });

  it('sessions: active until expiry or revocation', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = secretHash(newSecret());
    await sessions.insert({ tenant_id: tenantId, id_hash: hash, user_id: userId, auth_time: 1704067200, created_at: T0, expires_at: at(3600) });
    assert.equal((await sessions.findActive(tenantId, hash, at(10)))?.user_id, userId);
    assert.equal((await sessions.findActive(tenantId, hash, at(10)))?.auth_time, 1704067200);
    assert.equal(await sessions.findActive(tenantId, hash, at(3600)), undefined, 'expired');
    assert.equal(await sessions.revoke(tenantId, hash, at(20)), true);
    assert.equal(await sessions.revoke(tenantId, hash, at(21)), false);
    assert.equal(await sessions.findActive(tenantId, hash, at(30)), undefined, 'revoked');
  });

  it('sessions: touch records the use and moves the end; a revoked session stays revoked', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = secretHash(newSecret());
    await sessions.insert({ tenant_id: tenantId, id_hash: hash, user_id: userId, auth_time: 1704067200, created_at: T0, expires_at: at(3600) });
    assert.equal((await sessions.findActive(tenantId, hash, at(10)))?.last_interacted_at, null);
    await sessions.touch(tenantId, hash, at(100), at(7200));
    const touched = await sessions.findActive(tenantId, hash, at(5000));
    assert.equal(touched?.last_interacted_at, at(100));
    assert.equal(touched?.expires_at, at(7200));
    await sessions.revoke(tenantId, hash, at(200));
    await sessions.touch(tenantId, hash, at(300), at(9000));
    assert.equal(await sessions.findActive(tenantId, hash, at(400)), undefined, 'a touch does not bring a revoked session back');
  });

  it('authorization requests: usable until expiry, consumed exactly once', async () => {
    const { tenantId } = await tenantWithUser();
    const hash = secretHash(newSecret());
    await requests.insert({ tenant_id: tenantId, id_hash: hash, client_id: 'client', params: { a: 1 }, created_at: T0, expires_at: at(600), browser_hash: null });
    assert.deepEqual((await requests.findUsable(tenantId, hash, at(10)))?.params, { a: 1 });
    assert.equal(await requests.findUsable(tenantId, hash, at(600)), undefined, 'expired');
    const results = await Promise.all([requests.consume(tenantId, hash, at(20)), requests.consume(tenantId, hash, at(20))]);
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal(await requests.findUsable(tenantId, hash, at(30)), undefined, 'used');
  });
});
