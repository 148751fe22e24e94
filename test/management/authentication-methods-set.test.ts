/**
 * PUT /api/v2/users/{id}/authentication-methods (replace the phone, email and
 * totp methods) and PATCH …/{authentication_method_id} (name, preferred
 * method), driven by the official `auth0` SDK over the app; the user's
 * passkey is listed (type passkey), survives a PUT, and is deleted by the
 * SDK. Every refusal changes nothing: a missing member (400), the same
 * address twice (409), voice (400), too many methods (400), an unknown
 * method (404), a preferred method for an email (400), an unknown user (404).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';

const REALM = 'Username-Password-Authentication';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

type Method = { id: string; type: string; name?: string; email?: string; phone_number?: string; key_id?: string; preferred_authentication_method?: string };

describe('PUT and PATCH /api/v2/users/{id}/authentication-methods, with the auth0 SDK', () => {
  let t: TestApp;
  let sdk: ManagementClient;
  let userId: string;

  const list = async (): Promise<Method[]> => {
    const methods: Method[] = [];
    for await (const method of await sdk.users.authenticationMethods.list(userId)) methods.push(method as Method);
    return methods;
  };
  const shape = (methods: Method[]) => methods.map((m) => [m.type, m.email ?? m.phone_number ?? m.key_id ?? m.name ?? '']).sort();
  const status = (code: number) => (error: { statusCode?: number }) => error.statusCode === code;

  before(async () => {
    t = await createTestApp();
    const app = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: ['https://app.example.com/callback'] } });
    const created = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(created.statusCode, 201, created.body);
    sdk = await inProcessSdk(t);
    userId = (await sdk.users.create({ connection: REALM, email: 'methods@example.com', password: 'Correct horse battery staple 1' })).user_id!;
    // A passkey, as the login step stores one (src/domain/mfa/passkeys.ts).
    await t.ctx.stores.mfa.insertAuthenticator({
      tenant_id: t.tenant.id, id: 'dev_passkey0000000001', user_id: userId, type: 'passkey', confirmed: 1, name: null, email: null, phone_number: null, secret_enc: null, code_hash: null,
      created_at: new Date().toISOString(), enrolled_at: new Date().toISOString(), last_auth_at: null, credential_id: 'Y3JlZGVudGlhbA', public_key: 'cHVibGlj', sign_count: 0, transports: null, credential_device_type: 'multiDevice', credential_backed_up: 1,
    });
    await sdk.users.authenticationMethods.create(userId, { type: 'email', email: 'old@example.com' });
  });
  after(() => t.close());

  it('PUT replaces the phone, email and totp methods with the given ones; the passkey stays', async () => {
    const set = await sdk.users.authenticationMethods.set(userId, [
      { type: 'email', email: 'new@example.com' },
      { type: 'phone', phone_number: '+15551234567', name: 'Work' },
      { type: 'totp', totp_secret: SECRET },
    ]);
    assert.deepEqual(set.map((m) => m.type), ['email', 'phone', 'totp']);
    assert.ok(set.every((m) => typeof m.id === 'string' && m.id.includes('|dev_')), JSON.stringify(set));
    assert.equal(set[1]!.preferred_authentication_method, 'sms');
    assert.deepEqual(shape(await list()), [['email', 'new@example.com'], ['passkey', 'Y3JlZGVudGlhbA'], ['phone', '+15551234567'], ['totp', '']]);
  });

  it('PATCH names a method, and accepts sms as a phone’s preferred method', async () => {
    const phone = (await list()).find((m) => m.type === 'phone')!;
    const updated = await sdk.users.authenticationMethods.update(userId, phone.id, { name: 'Home', preferred_authentication_method: 'sms' });
    assert.equal(updated.name, 'Home');
    assert.equal((await sdk.users.authenticationMethods.get(userId, phone.id)).name, 'Home');
  });

  it('refusals change nothing', async () => {
    const before = shape(await list());
    const email = (await list()).find((m) => m.type === 'email')!;
    await assert.rejects(sdk.users.authenticationMethods.set(userId, [{ type: 'email' }]), status(400), 'a missing member');
    await assert.rejects(sdk.users.authenticationMethods.set(userId, [{ type: 'email', email: 'a@example.com' }, { type: 'email', email: 'A@example.com' }]), status(409), 'the same address twice');
    await assert.rejects(sdk.users.authenticationMethods.set(userId, [{ type: 'phone', phone_number: '+15550000000', preferred_authentication_method: 'voice' }]), status(400), 'voice');
    await assert.rejects(sdk.users.authenticationMethods.set(userId, Array.from({ length: 21 }, (_, i) => ({ type: 'email' as const, email: `m${i}@example.com` }))), status(400), 'too many');
    await assert.rejects(sdk.users.authenticationMethods.set(userId, [{ type: 'passkey' as never }]), status(400), 'a type PUT cannot set');
    await assert.rejects(sdk.users.authenticationMethods.update(userId, 'email|dev_unknown', { name: 'x' }), status(404), 'an unknown method');
    await assert.rejects(sdk.users.authenticationMethods.update(userId, email.id, { preferred_authentication_method: 'sms' }), status(400), 'a preferred method for an email');
    await assert.rejects(sdk.users.authenticationMethods.update(userId, email.id, { name: 'x'.repeat(21) }), status(400), 'a name too long');
    await assert.rejects(sdk.users.authenticationMethods.set('auth0|000000000000000000000000', [{ type: 'email', email: 'a@example.com' }]), status(404), 'an unknown user');
    assert.deepEqual(shape(await list()), before);
  });

  it('the SDK lists the passkey and deletes it', async () => {
    const passkey = (await list()).find((m) => m.type === 'passkey')!;
    assert.equal(passkey.key_id, 'Y3JlZGVudGlhbA');
    await sdk.users.authenticationMethods.delete(userId, passkey.id);
    assert.equal((await list()).some((m) => m.type === 'passkey'), false);
  });
});
