/**
 * The user store's contract and the password login step, against SQLite and
 * PostgreSQL (a fresh database, dropped afterwards), on migrated schemas.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcryptjs';
import { type Db } from '../../src/storage/database.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import { verifyPassword } from '../../src/platform/passwords/hashing.js';
import { findConnectionByName } from '../../src/domain/users/connections.js';
import { verifyUserPassword } from '../../src/domain/users/login.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, T0, userRow } from '../helpers/rows.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';



await forEachStoreFactory('user storage', (h) => {
  // Tenants and connections are seeded in SQL.
  let db: Db;
  let users: Stores['users'];
  let connections: Stores['connections'];

  before(() => {
    db = h.db();
    ({ users, connections } = h.stores());
  });

  /** A tenant with one `auth0` connection, per case. */
  async function tenantWithConnection(options = '{}'): Promise<{ tenantId: string; connectionId: string; name: string }> {
    const tenantId = newPrefixedId('ten');
    const name = `t-${randomString(10).toLowerCase()}`;
    await db.insertInto('tenants').values({ id: tenantId, name, domain: `${name}.example.test`, settings: '{}', created_at: T0 }).execute();
    const connectionId = newPrefixedId('con');
    await db.insertInto('connections').values({ tenant_id: tenantId, id: connectionId, name: 'Username-Password-Authentication', display_name: null, strategy: 'auth0', options, is_domain_connection: 0, realms: '[]', metadata: '{}', created_at: T0, updated_at: T0 }).execute();
    return { tenantId, connectionId, name: 'Username-Password-Authentication' };
  }

  it('finds a connection by exact name, with parsed options', async () => {
    const { tenantId, connectionId } = await tenantWithConnection('{"requires_username":true}');
    const found = await findConnectionByName(connections, tenantId, 'Username-Password-Authentication');
    assert.deepEqual(found, { id: connectionId, name: 'Username-Password-Authentication', strategy: 'auth0', options: { requires_username: true } });
    assert.equal(await findConnectionByName(connections, tenantId, 'username-password-authentication'), undefined);
  });

  it('inserts, gets with the connection name, updates, deletes', async () => {
    const { tenantId, connectionId, name } = await tenantWithConnection();
    const row = userRow(tenantId, connectionId);
    await users.insert(row);
    assert.deepEqual(await users.get(tenantId, row.user_id), { ...row, connection_name: name });
    assert.equal(await users.update(tenantId, row.user_id, { blocked: 1 }), true);
    assert.equal((await users.get(tenantId, row.user_id))?.blocked, 1);
    assert.equal(await users.update(tenantId, 'auth0|missing', { blocked: 1 }), false);
    assert.equal(await users.delete(tenantId, row.user_id), true);
    assert.equal(await users.delete(tenantId, row.user_id), false);
    assert.equal(await users.get(tenantId, row.user_id), undefined);
  });

  it('refuses a second user with the same email or username in the connection, case-insensitively', async () => {
    const { tenantId, connectionId } = await tenantWithConnection();
    await users.insert(userRow(tenantId, connectionId, { email: 'A@x.test', email_lower: 'a@x.test', username: 'Ann', username_lower: 'ann' }));
    const sameEmail = users.insert(userRow(tenantId, connectionId, { email: 'a@X.test', email_lower: 'a@x.test' }));
    await assert.rejects(sameEmail, (e) => isUniqueViolation(e));
    const sameUsername = users.insert(userRow(tenantId, connectionId, { username: 'ANN', username_lower: 'ann' }));
    await assert.rejects(sameUsername, (e) => isUniqueViolation(e));
    // Several users without a username (NULLs are distinct in a unique index on both databases).
    await users.insert(userRow(tenantId, connectionId));
    await users.insert(userRow(tenantId, connectionId));
  });

  it('finds the sms| user of a phone number, one per number and connection; other users with that number are not theirs', async () => {
    const { tenantId, connectionId } = await tenantWithConnection();
    const other = userRow(tenantId, connectionId, { phone_number: '+15550100' });
    await users.insert(other);
    assert.equal(await users.findSmsUser(tenantId, connectionId, '+15550100'), undefined, 'a database user with the number');
    const sms = userRow(tenantId, connectionId, { user_id: 'sms|0123456789abcdef01234567', email: null, email_lower: null, phone_number: '+15550100' });
    await users.insert(sms);
    assert.equal((await users.findSmsUser(tenantId, connectionId, '+15550100'))?.user_id, sms.user_id);
    const twin = users.insert(userRow(tenantId, connectionId, { user_id: 'sms|76543210fedcba9876543210', email: null, email_lower: null, phone_number: '+15550100' }));
    await assert.rejects(twin, (e) => isUniqueViolation(e));
  });

  it('finds a login identifier by email or username, case-insensitively; an email wins over an equal username', async () => {
    const { tenantId, connectionId } = await tenantWithConnection('{"requires_username":true}');
    const ann = userRow(tenantId, connectionId, { email: 'Ann@X.test', email_lower: 'ann@x.test', username: 'Ann', username_lower: 'ann' });
    // Usernames may contain `@`: this one equals another user's email.
    const other = userRow(tenantId, connectionId, { username: 'Bob@X.test', username_lower: 'bob@x.test' });
    const bob = userRow(tenantId, connectionId, { email: 'bob@x.test', email_lower: 'bob@x.test' });
    for (const row of [ann, other, bob]) await users.insert(row);

    assert.equal((await users.findByLoginIdentifier(tenantId, connectionId, 'ann'))?.user_id, ann.user_id);
    assert.equal((await users.findByLoginIdentifier(tenantId, connectionId, 'ann@x.test'))?.user_id, ann.user_id);
    assert.equal((await users.findByLoginIdentifier(tenantId, connectionId, 'bob@x.test'))?.user_id, bob.user_id);
    assert.equal(await users.findByLoginIdentifier(tenantId, connectionId, 'nobody'), undefined);
    const elsewhere = await tenantWithConnection();
    assert.equal(await users.findByLoginIdentifier(elsewhere.tenantId, elsewhere.connectionId, 'ann'), undefined);

    await users.update(tenantId, ann.user_id, { password_hash: await bcrypt.hash('ann-pass', 4) });
    assert.equal((await verifyUserPassword(users, tenantId, connectionId, 'ANN', 'ann-pass'))?.user_id, ann.user_id);
    assert.equal(await verifyUserPassword(users, tenantId, connectionId, 'Ann', 'wrong'), undefined);
  });

  it('lists a stable page by creation time, then user_id, with the total', async () => {
    const { tenantId, connectionId } = await tenantWithConnection();
    const rows = [
      userRow(tenantId, connectionId, { user_id: 'auth0|b', created_at: at(1) }),
      userRow(tenantId, connectionId, { user_id: 'auth0|a', created_at: at(1) }),
      userRow(tenantId, connectionId, { user_id: 'auth0|c', created_at: at(0) }),
    ];
    for (const row of rows) await users.insert(row);
    const all = await users.list(tenantId, { offset: 0, limit: 10, withTotal: true });
    assert.deepEqual(all.rows.map((r) => r.user_id), ['auth0|c', 'auth0|a', 'auth0|b']);
    assert.equal(all.total, 3);
    const page = await users.list(tenantId, { offset: 1, limit: 1, withTotal: false });
    assert.deepEqual(page.rows.map((r) => r.user_id), ['auth0|a']);
    assert.equal(page.total, undefined);
  });

  it('logs an imported bcrypt user in and replaces the hash with argon2id; wrong passwords change nothing', async () => {
    const { tenantId, connectionId } = await tenantWithConnection();
    const imported = await bcrypt.hash('legacy-pass', 4);
    const row = userRow(tenantId, connectionId, { email: 'Legacy@Example.com', email_lower: 'legacy@example.com', password_hash: imported });
    await users.insert(row);

    assert.equal(await verifyUserPassword(users, tenantId, connectionId, 'legacy@example.com', 'wrong'), undefined);
    assert.equal((await users.get(tenantId, row.user_id))?.password_hash, imported);
    assert.equal(await verifyUserPassword(users, tenantId, connectionId, 'nobody@example.com', 'legacy-pass'), undefined);

    const loggedIn = await verifyUserPassword(users, tenantId, connectionId, 'LEGACY@example.com', 'legacy-pass');
    assert.equal(loggedIn?.user_id, row.user_id);
    const stored = (await users.get(tenantId, row.user_id))?.password_hash ?? '';
    assert.match(stored, /^\$argon2id\$/);
    assert.deepEqual(await verifyPassword(stored, 'legacy-pass'), { ok: true, needsRehash: false });
    // The next login verifies against the new hash and leaves it alone.
    assert.equal((await verifyUserPassword(users, tenantId, connectionId, 'legacy@example.com', 'legacy-pass'))?.password_hash, stored);
  });

  it('links a user to another: no user of its own, an identity of the primary, found by its login and its email', async () => {
    const { tenantId, connectionId, name } = await tenantWithConnection();
    const primary = userRow(tenantId, connectionId, { created_at: at(1) });
    const secondary = userRow(tenantId, connectionId, { created_at: at(2), app_metadata: { plan: 'gold' }, user_metadata: { lang: 'fr' } });
    const third = userRow(tenantId, connectionId, { created_at: at(3) });
    for (const row of [primary, secondary, third]) await users.insert(row);
    await db.insertInto('roles').values({ tenant_id: tenantId, id: 'rol_linked', name: 'r', description: null, created_at: T0 }).execute();
    await db.insertInto('user_roles').values({ tenant_id: tenantId, user_id: secondary.user_id, role_id: 'rol_linked', created_at: T0 }).execute();

    assert.equal(await users.link(tenantId, primary.user_id, primary.user_id, at(5)), false, 'not to itself');
    assert.equal(await users.link(tenantId, secondary.user_id, 'auth0|missing', at(5)), false, 'not to a missing user');
    assert.equal(await users.link(tenantId, secondary.user_id, primary.user_id, at(5)), true);
    const linked = { ...secondary, linked_to: primary.user_id, app_metadata: {}, user_metadata: {}, updated_at: at(5), connection_name: name };
    assert.equal(await users.get(tenantId, secondary.user_id), undefined);
    assert.deepEqual(await users.getIdentity(tenantId, secondary.user_id), linked);
    assert.deepEqual(await users.linkedIdentities(tenantId, [primary.user_id, third.user_id]), [linked]);
    assert.deepEqual((await users.list(tenantId, { offset: 0, limit: 10, withTotal: true })).total, 2);
    assert.deepEqual((await users.listByEmail(tenantId, secondary.email_lower!)).map((u) => u.user_id), [primary.user_id]);
    assert.equal((await users.findByLoginIdentifier(tenantId, connectionId, secondary.email_lower!))?.linked_to, primary.user_id);
    assert.equal(await db.selectFrom('user_roles').select('role_id').where('user_id', '=', secondary.user_id).executeTakeFirst(), undefined, 'its roles went');

    assert.equal(await users.link(tenantId, secondary.user_id, third.user_id, at(6)), false, 'already linked');
    assert.equal(await users.link(tenantId, third.user_id, secondary.user_id, at(6)), false, 'not to a linked row');
    assert.equal(await users.link(tenantId, primary.user_id, third.user_id, at(6)), false, 'not a user with identities');
    assert.equal(await users.delete(tenantId, secondary.user_id), false, 'a linked row is no user to delete');

    assert.equal(await users.unlink(tenantId, secondary.user_id, third.user_id, at(7)), false, 'not linked to that one');
    assert.equal(await users.unlink(tenantId, secondary.user_id, primary.user_id, at(7)), true);
    assert.deepEqual(await users.get(tenantId, secondary.user_id), { ...linked, linked_to: null, updated_at: at(7) });
    assert.deepEqual(await users.linkedIdentities(tenantId, [primary.user_id]), []);

    assert.equal(await users.link(tenantId, third.user_id, primary.user_id, at(8)), true);
    assert.equal(await users.delete(tenantId, primary.user_id), true);
    assert.equal(await users.getIdentity(tenantId, third.user_id), undefined, 'its identities went with it');
    assert.ok(await users.get(tenantId, secondary.user_id));
  });

  it('two links that would chain, at once: one of them is refused, and no identity is linked to a linked row', async () => {
    const { tenantId, connectionId } = await tenantWithConnection();
    const [a, b, c] = [userRow(tenantId, connectionId), userRow(tenantId, connectionId), userRow(tenantId, connectionId)];
    for (const row of [a, b, c]) await users.insert(row);
    const results = await Promise.all([users.link(tenantId, b.user_id, a.user_id, at(5)), users.link(tenantId, c.user_id, b.user_id, at(5))]);
    assert.deepEqual(results.filter(Boolean).length, 1, JSON.stringify(results));
    const rows = await Promise.all([a, b, c].map((row) => users.getIdentity(tenantId, row.user_id)));
    const linkedTo = new Set(rows.map((row) => row?.linked_to).filter((id) => id !== null));
    for (const row of rows) if (linkedTo.has(row!.user_id)) assert.equal(row!.linked_to, null, 'a primary is no linked row');
  });
});
