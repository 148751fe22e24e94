/**
 * The ticket store's contract against SQLite and PostgreSQL (a fresh database,
 * dropped afterwards), on migrated schemas: usable until expiry or use,
 * consumed exactly once (also under concurrency), scoped by tenant and kind,
 * removed with the user.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { type Db } from '../../src/storage/database.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { fullUserId, newUserIdPart } from '../../src/domain/users/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { newSecret, secretHash } from '../../src/domain/secrets.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';

const T0 = '2024-01-01T00:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

await forEachStoreFactory('ticket storage', (h) => {
  // Tenants and users are seeded, a user removed and tickets read, in SQL.
  let db: Db;
  let tickets: Stores['tickets'];
  before(() => {
    db = h.db();
    tickets = h.stores().tickets;
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

  async function issue(tenantId: string, userId: string, kind: 'email_verification' | 'password_reset' = 'password_reset', expiresIn = 3600) {
    const ticket = newSecret();
    await tickets.insert({ tenant_id: tenantId, id_hash: secretHash(ticket), kind, user_id: userId, created_at: T0, expires_at: at(expiresIn) });
    return secretHash(ticket);
  }

  it('finds a usable ticket without consuming it, and consumes it exactly once', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    assert.equal((await tickets.findUsable(tenantId, hash, 'password_reset', at(10)))?.user_id, userId);
    assert.equal((await tickets.findUsable(tenantId, hash, 'password_reset', at(10)))?.used_at, null);
    assert.equal(await tickets.consume(tenantId, hash, 'password_reset', at(20)), userId);
    assert.equal(await tickets.consume(tenantId, hash, 'password_reset', at(21)), undefined);
    assert.equal(await tickets.findUsable(tenantId, hash, 'password_reset', at(22)), undefined);
    const row = await db.selectFrom('tickets').selectAll().where('id_hash', '=', hash).executeTakeFirstOrThrow();
    assert.equal(row.used_at, at(20));
  });

  it('refuses an expired ticket (expiry is exclusive)', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId, 'email_verification', 100);
    assert.equal(await tickets.findUsable(tenantId, hash, 'email_verification', at(100)), undefined);
    assert.equal(await tickets.consume(tenantId, hash, 'email_verification', at(100)), undefined);
    assert.equal(await tickets.consume(tenantId, hash, 'email_verification', at(99)), userId);
  });

  it('is scoped by tenant and kind', async () => {
    const a = await tenantWithUser();
    const b = await tenantWithUser();
    const hash = await issue(a.tenantId, a.userId, 'email_verification');
    assert.equal(await tickets.consume(b.tenantId, hash, 'email_verification', at(1)), undefined);
    assert.equal(await tickets.consume(a.tenantId, hash, 'password_reset', at(1)), undefined);
    assert.equal(await tickets.consume(a.tenantId, hash, 'email_verification', at(1)), a.userId);
  });

  it('lets exactly one of concurrent consumptions win', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    const results = await Promise.all(Array.from({ length: 8 }, () => tickets.consume(tenantId, hash, 'password_reset', at(5))));
    assert.equal(results.filter((r) => r === userId).length, 1);
    assert.equal(results.filter((r) => r === undefined).length, 7);
  });

  it('rolls a consumption back with its transaction', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    await assert.rejects(
      h.unitOfWork().transaction(async (stores) => {
        assert.equal(await stores.tickets.consume(tenantId, hash, 'password_reset', at(5)), userId);
        throw new Error('abort');
      }),
      /abort/,
    );
    assert.equal(await tickets.consume(tenantId, hash, 'password_reset', at(6)), userId);
  });

  it('refuses a duplicate hash and an unknown user; tickets go with their user', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const hash = await issue(tenantId, userId);
    await assert.rejects(
      tickets.insert({ tenant_id: tenantId, id_hash: hash, kind: 'password_reset', user_id: userId, created_at: T0, expires_at: at(60) }),
      (error: unknown) => isUniqueViolation(error),
    );
    await assert.rejects(tickets.insert({ tenant_id: tenantId, id_hash: secretHash(newSecret()), kind: 'password_reset', user_id: 'auth0|missing', created_at: T0, expires_at: at(60) }));
    await db.deleteFrom('users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
    assert.equal((await db.selectFrom('tickets').select('id_hash').where('tenant_id', '=', tenantId).execute()).length, 0);
  });

  it('stores only the hash: 43 base64url characters, not the ticket', () => {
    const ticket = newSecret();
    assert.match(ticket, /^[A-Za-z0-9_-]{43}$/);
    assert.match(secretHash(ticket), /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(secretHash(ticket), ticket);
  });
});
