/**
 * Behavioural conformance of the MFA store (src/domain/mfa/store.ts) on
 * SQLite and PostgreSQL: each case checks a documented contract on the
 * migrated schema, in a tenant and user of its own.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { MfaAuthenticatorRow } from '../../src/domain/rows.js';
import type { Stores } from '../../src/domain/stores.js';
import { newPrefixedId } from '../../src/platform/crypto/ids.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, connectionRow, T0, tenantRow, userRow } from '../helpers/rows.js';

await forEachStoreFactory('MFA store', (h) => {
  let stores: Stores;
  before(() => {
    stores = h.stores();
  });

  async function tenantWithUser(): Promise<{ tenantId: string; userId: string }> {
    const tenant = tenantRow();
    await stores.tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    const connection = connectionRow(tenant.id);
    await stores.connections.insert(connection, []);
    const user = userRow(tenant.id, connection.id);
    await stores.users.insert(user);
    return { tenantId: tenant.id, userId: user.user_id };
  }

  const authenticator = (tenantId: string, userId: string, fields: Partial<MfaAuthenticatorRow> = {}): MfaAuthenticatorRow => ({
    tenant_id: tenantId,
    id: newPrefixedId('dev'),
    user_id: userId,
    type: 'totp',
    confirmed: 0,
    name: null,
    email: null,
    phone_number: null,
    secret_enc: 'sealed',
    code_hash: null,
    created_at: T0,
    enrolled_at: null,
    last_auth_at: null,
    push_service: null,
    push_token_enc: null,
    public_key: null,
    credential_id: null,
    sign_count: null,
    transports: null,
    credential_device_type: null,
    credential_backed_up: null,
    ...fields,
  });

  it('factors and policies: disabled and none until set, then as set', async () => {
    const { tenantId } = await tenantWithUser();
    assert.deepEqual([...(await stores.mfa.enabledFactors(tenantId))], []);
    assert.deepEqual(await stores.mfa.policies(tenantId), []);
    await stores.mfa.setFactor(tenantId, 'otp', true, T0);
    await stores.mfa.setFactor(tenantId, 'email', true, T0);
    await stores.mfa.setFactor(tenantId, 'email', false, T0);
    assert.deepEqual([...(await stores.mfa.enabledFactors(tenantId))], ['otp']);
    await stores.mfa.setPolicies(tenantId, ['all-applications'], T0);
    assert.deepEqual(await stores.mfa.policies(tenantId), ['all-applications']);
    await stores.mfa.setPolicies(tenantId, [], T0);
    assert.deepEqual(await stores.mfa.policies(tenantId), []);
  });

  it('authenticators: insert, confirm once, delete only the user\'s own, delete all', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const other = await tenantWithUser();
    const row = authenticator(tenantId, userId);
    await stores.mfa.insertAuthenticator(row);
    assert.deepEqual(await stores.mfa.authenticator(tenantId, row.id), row);
    assert.equal(await stores.mfa.confirmAuthenticator(tenantId, row.id, at(1)), true);
    assert.equal(await stores.mfa.confirmAuthenticator(tenantId, row.id, at(2)), false, 'confirmed once');
    assert.equal((await stores.mfa.authenticator(tenantId, row.id))?.enrolled_at, at(1));
    assert.equal(await stores.mfa.deleteAuthenticator(other.tenantId, other.userId, row.id), false, "another user's id deletes nothing");
    await stores.mfa.insertAuthenticator(authenticator(tenantId, userId, { type: 'email', email: 'a@example.com', secret_enc: null }));
    assert.equal((await stores.mfa.authenticators(tenantId, userId)).length, 2);
    assert.equal(await stores.mfa.deleteAuthenticators(tenantId, userId), 2);
    assert.deepEqual(await stores.mfa.authenticators(tenantId, userId), []);
  });

  it('recovery codes: one per user; spent once, even concurrently, and replaced by the next', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const first = authenticator(tenantId, userId, { type: 'recovery-code', code_hash: 'h1', secret_enc: null, confirmed: 1 });
    await stores.mfa.replaceRecoveryCode(first);
    await stores.mfa.replaceRecoveryCode({ ...first, id: newPrefixedId('dev'), code_hash: 'h2' });
    assert.deepEqual((await stores.mfa.authenticators(tenantId, userId)).map((r) => r.code_hash), ['h2']);
    const next = (hash: string) => ({ ...first, id: newPrefixedId('dev'), code_hash: hash });
    const results = await Promise.all([stores.mfa.spendRecoveryCode(tenantId, userId, 'h2', next('h3')), stores.mfa.spendRecoveryCode(tenantId, userId, 'h2', next('h4'))]);
    assert.deepEqual(results.filter(Boolean).length, 1, 'exactly one spends it');
    const left = (await stores.mfa.authenticators(tenantId, userId)).map((r) => r.code_hash);
    assert.equal(left.length, 1);
    assert.equal(await stores.mfa.spendRecoveryCode(tenantId, userId, 'h1', next('h5')), false, 'a replaced code is spent');
  });

  it('challenges: spent once, never after expiry', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const challenge = { tenant_id: tenantId, oob_hash: 'o1', authenticator_id: 'dev_x', user_id: userId, client_id: 'c', binding_hash: 'b', expires_at: at(300) };
    await stores.mfa.insertChallenge(challenge);
    await stores.mfa.insertChallenge({ ...challenge, oob_hash: 'o2' });
    assert.equal((await stores.mfa.challenge(tenantId, 'o1'))?.used_at, null);
    const both = await Promise.all([stores.mfa.spendChallenge(tenantId, 'o1', at(1)), stores.mfa.spendChallenge(tenantId, 'o1', at(1))]);
    assert.equal(both.filter(Boolean).length, 1);
    assert.equal(await stores.mfa.spendChallenge(tenantId, 'o2', at(300)), false, 'expired');
  });

  it('push: a device recorded once on an unconfirmed push enrolment; a transaction resolved once while live; polls paced', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const push = authenticator(tenantId, userId, { type: 'push', secret_enc: null });
    await stores.mfa.insertAuthenticator(push);
    const device = { name: 'phone', push_service: 'APNS', push_token_enc: 'sealed-token', public_key: '{"kty":"EC"}' };
    const both = await Promise.all([stores.mfa.setPushDevice(tenantId, push.id, device, at(1)), stores.mfa.setPushDevice(tenantId, push.id, { ...device, name: 'other' }, at(1))]);
    assert.equal(both.filter(Boolean).length, 1, 'one device wins the enrolment');
    const stored = await stores.mfa.authenticator(tenantId, push.id);
    assert.equal(stored?.confirmed, 1);
    assert.equal(stored?.push_token_enc, 'sealed-token');
    const totp = authenticator(tenantId, userId);
    await stores.mfa.insertAuthenticator(totp);
    assert.equal(await stores.mfa.setPushDevice(tenantId, totp.id, device, at(1)), false, 'only push enrolments');

    const challenge = { tenant_id: tenantId, oob_hash: 'p1', authenticator_id: push.id, user_id: userId, client_id: 'c', binding_hash: 'b', expires_at: at(300), status: 'pending', transaction_hash: 't1', last_polled_at: null };
    await stores.mfa.insertChallenge(challenge);
    await stores.mfa.insertChallenge({ ...challenge, oob_hash: 'p2', transaction_hash: 't2' });
    assert.equal((await stores.mfa.challengeByTransaction(tenantId, 't1'))?.oob_hash, 'p1');
    const answers = await Promise.all([stores.mfa.resolveChallenge(tenantId, 't1', 'approved', at(2)), stores.mfa.resolveChallenge(tenantId, 't1', 'denied', at(2))]);
    assert.equal(answers.filter(Boolean).length, 1, 'answered once');
    assert.equal(await stores.mfa.resolveChallenge(tenantId, 't2', 'approved', at(300)), false, 'not after expiry');

    assert.equal(await stores.mfa.pollChallenge(tenantId, 'p1', at(10), at(5)), true, 'the first poll');
    assert.equal(await stores.mfa.pollChallenge(tenantId, 'p1', at(12), at(7)), false, 'too soon after it');
    assert.equal(await stores.mfa.pollChallenge(tenantId, 'p1', at(15), at(10)), true, 'an interval later');
  });

  it('WebAuthn: a credential found by its id within its tenant only; unique per tenant; the counter advanced once from the value read', async () => {
    const { tenantId, userId } = await tenantWithUser();
    const other = await tenantWithUser();
    const row = authenticator(tenantId, userId, { type: 'webauthn-roaming', secret_enc: null, confirmed: 1, credential_id: 'cred-1', public_key: 'pk', sign_count: 3 });
    await stores.mfa.insertAuthenticator(row);
    assert.equal((await stores.mfa.authenticatorByCredential(tenantId, 'cred-1'))?.id, row.id);
    assert.equal(await stores.mfa.authenticatorByCredential(other.tenantId, 'cred-1'), undefined, 'not in another tenant');
    await assert.rejects(stores.mfa.insertAuthenticator(authenticator(tenantId, userId, { id: newPrefixedId('dev'), type: 'webauthn-platform', credential_id: 'cred-1' })), 'a credential id once per tenant');
    await stores.mfa.insertAuthenticator(authenticator(other.tenantId, other.userId, { type: 'webauthn-roaming', credential_id: 'cred-1' }));
    const results = await Promise.all([stores.mfa.advanceSignCount(tenantId, row.id, 3, 4, at(1)), stores.mfa.advanceSignCount(tenantId, row.id, 3, 5, at(1))]);
    assert.deepEqual(results.filter(Boolean).length, 1, 'of two uses with one counter, one wins');
    assert.equal(await stores.mfa.advanceSignCount(tenantId, row.id, 3, 6, at(2)), false, 'not from a stale value');
    const after = await stores.mfa.authenticatorByCredential(tenantId, 'cred-1');
    assert.ok(after?.sign_count === 4 || after?.sign_count === 5);
    assert.equal(after?.last_auth_at, at(1));
  });

  it('failures: counted in a window, a new window after it, cleared by a success', async () => {
    const { tenantId, userId } = await tenantWithUser();
    assert.equal(await stores.mfa.recordFailure(tenantId, userId, at(0), at(-900)), 1);
    assert.equal(await stores.mfa.recordFailure(tenantId, userId, at(10), at(-890)), 2);
    assert.equal(await stores.mfa.failures(tenantId, userId, at(-890)), 2);
    assert.equal(await stores.mfa.failures(tenantId, userId, at(0)), 0, 'the window started at 0 is over for a later start');
    assert.equal(await stores.mfa.recordFailure(tenantId, userId, at(900), at(0)), 1, 'a new window');
    await stores.mfa.clearFailures(tenantId, userId);
    assert.equal(await stores.mfa.failures(tenantId, userId, at(-1)), 0);
  });
});
