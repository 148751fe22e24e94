/**
 * The Management API's MFA operations through the real app and database:
 * factors (/guardian/factors), the policy (/guardian/policies), users'
 * enrolments (/users/{id}/enrollments, /authentication-methods,
 * /guardian/enrollments/{id}, /recovery-code-regeneration), with the shapes
 * of the service's OpenAPI document, and each refusal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { verifyTotp } from '../../src/domain/mfa/service.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const REALM = 'Username-Password-Authentication';

describe('/api/v2 MFA: factors, policies, enrolments', () => {
  let t: TestApp;
  let token: string;
  let userId: string;

  const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
    t.management(method, url, { token, ...(body !== undefined && { body }), ...(headers && { headers }) });

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
    assert.equal((await call('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0' })).statusCode, 201);
    const user = await call('POST', '/api/v2/users', { connection: REALM, email: 'mfa-admin@example.com', password: 'Correct horse battery 1' });
    assert.equal(user.statusCode, 201, user.body);
    userId = (user.json() as { user_id: string }).user_id;
  });
  after(() => t.close());

  describe('factors', () => {
    it('GET lists every factor, disabled until enabled, in the service shape', async () => {
      const res = await call('GET', '/api/v2/guardian/factors');
      assert.equal(res.statusCode, 200, res.body);
      const factors = res.json() as { name: string; enabled: boolean; trial_expired: boolean }[];
      assert.deepEqual(factors.map((f) => f.name), ['push-notification', 'sms', 'email', 'duo', 'otp', 'webauthn-roaming', 'webauthn-platform', 'recovery-code']);
      assert.ok(factors.every((f) => f.enabled === false && f.trial_expired === false));
      assert.deepEqual(Object.keys(factors[0]!), ['enabled', 'trial_expired', 'name']);
    });

    it('PUT enables and disables a supported factor; GET shows it', async () => {
      const on = await call('PUT', '/api/v2/guardian/factors/otp', { enabled: true });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.body, '{"enabled":true}');
      const listed = (await call('GET', '/api/v2/guardian/factors')).json() as { name: string; enabled: boolean }[];
      assert.equal(listed.find((f) => f.name === 'otp')?.enabled, true);
      const form = await call('PUT', '/api/v2/guardian/factors/email', 'enabled=true', { 'content-type': 'application/x-www-form-urlencoded' });
      assert.equal(form.statusCode, 200, form.body);
      assert.equal((await call('PUT', '/api/v2/guardian/factors/email', { enabled: false })).statusCode, 200);
    });

    it('refuses to enable an unknown factor name, with nothing changed', async () => {
      const unknown = await call('PUT', '/api/v2/guardian/factors/carrier-pigeon', { enabled: true });
      assert.equal(unknown.statusCode, 400, unknown.body);
      const listed = (await call('GET', '/api/v2/guardian/factors')).json() as { name: string; enabled: boolean }[];
      assert.deepEqual(listed.filter((f) => f.enabled).map((f) => f.name), ['otp']);
    });

    it('needs the guardian factor scopes', async () => {
      const readOnly = await t.managementToken('read:guardian_factors');
      assert.equal((await t.management('GET', '/api/v2/guardian/factors', { token: readOnly })).statusCode, 200);
      const write = await t.management('PUT', '/api/v2/guardian/factors/otp', { token: readOnly, body: { enabled: false } });
      assert.equal(write.statusCode, 403, write.body);
    });
  });

  describe('policies', () => {
    it('[] until set; PUT replaces them; [] turns them off', async () => {
      assert.equal((await call('GET', '/api/v2/guardian/policies')).body, '[]');
      const set = await call('PUT', '/api/v2/guardian/policies', ['all-applications']);
      assert.equal(set.statusCode, 200, set.body);
      assert.equal(set.body, '["all-applications"]');
      assert.equal((await call('GET', '/api/v2/guardian/policies')).body, '["all-applications"]');
      assert.equal((await call('PUT', '/api/v2/guardian/policies', [])).body, '[]');
      assert.equal((await call('GET', '/api/v2/guardian/policies')).body, '[]');
    });

    it('refuses an unknown policy, a repeated one and a non-array, keeping the policies', async () => {
      await call('PUT', '/api/v2/guardian/policies', ['confidence-score']);
      for (const body of [['sometimes'], ['confidence-score', 'confidence-score'], { policy: 'all-applications' }]) {
        const res = await call('PUT', '/api/v2/guardian/policies', body);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body');
      }
      assert.equal((await call('GET', '/api/v2/guardian/policies')).body, '["confidence-score"]');
      await call('PUT', '/api/v2/guardian/policies', []);
    });
  });

  describe("users' authentication methods and enrolments", () => {
    const secret = new Secret({ size: 20 }).base32;

    it('POST totp, email and phone methods: 201, confirmed, listed; 409 for a repeated address', async () => {
      const totp = await call('POST', `/api/v2/users/${userId}/authentication-methods`, { type: 'totp', totp_secret: secret, name: 'My phone' });
      assert.equal(totp.statusCode, 201, totp.body);
      const created = totp.json() as Record<string, unknown>;
      assert.match(created.id as string, /^totp\|dev_[A-Za-z0-9]{16}$/);
      assert.deepEqual({ ...created, id: 'x' }, { id: 'x', type: 'totp', name: 'My phone' }, 'the secret is not echoed');

      const email = await call('POST', `/api/v2/users/${userId}/authentication-methods`, { type: 'email', email: 'second@example.com' });
      assert.equal(email.statusCode, 201, email.body);
      const phone = await call('POST', `/api/v2/users/${userId}/authentication-methods`, { type: 'phone', phone_number: '+15550001234' });
      assert.equal(phone.statusCode, 201, phone.body);
      assert.equal((phone.json() as { preferred_authentication_method: string }).preferred_authentication_method, 'sms');
      const again = await call('POST', `/api/v2/users/${userId}/authentication-methods`, { type: 'email', email: 'SECOND@example.com' });
      assert.equal(again.statusCode, 409, again.body);

      const list = await call('GET', `/api/v2/users/${userId}/authentication-methods`);
      assert.equal(list.statusCode, 200, list.body);
      const methods = list.json() as { id: string; type: string; confirmed: boolean; created_at: string }[];
      assert.deepEqual(methods.map((m) => m.type), ['totp', 'email', 'phone']);
      assert.ok(methods.every((m) => m.confirmed && typeof m.created_at === 'string'));
      assert.ok(!list.body.includes(secret), 'the TOTP secret never leaves');

      const paged = (await call('GET', `/api/v2/users/${userId}/authentication-methods?include_totals=true&per_page=2&page=1`)).json() as Record<string, unknown>;
      assert.deepEqual({ ...paged, authenticators: (paged.authenticators as unknown[]).length }, { authenticators: 1, start: 2, limit: 2, total: 3 });

      const one = await call('GET', `/api/v2/users/${userId}/authentication-methods/${encodeURIComponent(methods[1]!.id)}`);
      assert.equal(one.statusCode, 200, one.body);
      assert.equal((one.json() as { email: string }).email, 'second@example.com');
    });

    it('an administrator-added TOTP secret verifies codes', async () => {
      await call('PUT', '/api/v2/guardian/factors/otp', { enabled: true });
      const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.ctx.now() });
      const result = await verifyTotp(t.ctx, t.tenant.id, userId, code);
      assert.equal(result.outcome, 'ok');
    });

    it('refuses bad bodies with 400 and an unknown user with 404', async () => {
      const bad: unknown[] = [
        { type: 'totp' },
        { type: 'totp', totp_secret: 'not base32!' },
        { type: 'phone', phone_number: '5550001234' },
        { type: 'email', email: 'not-an-email' },
        { type: 'passkey' },
        { type: 'totp', totp_secret: secret, extra: 1 },
      ];
      for (const body of bad) {
        const res = await call('POST', `/api/v2/users/${userId}/authentication-methods`, body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      }
      const unknown = await call('GET', '/api/v2/users/auth0%7Cnobody/authentication-methods');
      assert.equal(unknown.statusCode, 404, unknown.body);
      assert.equal((unknown.json() as { errorCode: string }).errorCode, 'inexistent_user');
      assert.equal((await call('GET', `/api/v2/users/${userId}/authentication-methods`)).json().length, 3, 'nothing was added');
    });

    it('GET /users/{id}/enrollments lists the authenticator and SMS enrolments; GET and DELETE /guardian/enrollments/{id}', async () => {
      const res = await call('GET', `/api/v2/users/${userId}/enrollments`);
      assert.equal(res.statusCode, 200, res.body);
      const enrollments = res.json() as { id: string; status: string; type: string; auth_method: string; phone_number?: string }[];
      assert.deepEqual(enrollments.map((e) => [e.type, e.auth_method, e.status]), [['authenticator', 'authenticator', 'confirmed'], ['sms', 'sms', 'confirmed']]);
      assert.match(enrollments[0]!.id, /^dev_/);
      assert.equal(enrollments[1]!.phone_number, '+15550001234');

      const one = await call('GET', `/api/v2/guardian/enrollments/${enrollments[1]!.id}`);
      assert.equal(one.statusCode, 200, one.body);
      assert.equal((one.json() as { phone_number: string }).phone_number, '+15550001234');

      const del = await call('DELETE', `/api/v2/guardian/enrollments/${enrollments[1]!.id}`);
      assert.equal(del.statusCode, 204, del.body);
      assert.equal((await call('GET', `/api/v2/guardian/enrollments/${enrollments[1]!.id}`)).statusCode, 404);
      assert.equal((await call('GET', `/api/v2/users/${userId}/enrollments`)).json().length, 1);
    });

    it('recovery-code regeneration: a new code each time, the old one gone; 404 without a second factor', async () => {
      await call('PUT', '/api/v2/guardian/factors/recovery-code', { enabled: true });
      const first = await call('POST', `/api/v2/users/${userId}/recovery-code-regeneration`);
      assert.equal(first.statusCode, 200, first.body);
      const code = (first.json() as { recovery_code: string }).recovery_code;
      assert.match(code, /^[A-Z0-9]{24}$/);
      const second = (await call('POST', `/api/v2/users/${userId}/recovery-code-regeneration`)).json() as { recovery_code: string };
      assert.notEqual(second.recovery_code, code);
      const methods = (await call('GET', `/api/v2/users/${userId}/authentication-methods`)).json() as { type: string }[];
      assert.equal(methods.filter((m) => m.type === 'recovery-code').length, 1, 'one recovery code at a time');

      const other = await call('POST', '/api/v2/users', { connection: REALM, email: 'no-mfa@example.com', password: 'Correct horse battery 1' });
      const none = await call('POST', `/api/v2/users/${(other.json() as { user_id: string }).user_id}/recovery-code-regeneration`);
      assert.equal(none.statusCode, 404, none.body);
      assert.equal((none.json() as { message: string }).message, 'Enrollment not found.');
    });

    it('DELETE one method, then all of them', async () => {
      const methods = (await call('GET', `/api/v2/users/${userId}/authentication-methods`)).json() as { id: string; type: string }[];
      const email = methods.find((m) => m.type === 'email')!;
      assert.equal((await call('DELETE', `/api/v2/users/${userId}/authentication-methods/${encodeURIComponent(email.id)}`)).statusCode, 204);
      assert.equal((await call('DELETE', `/api/v2/users/${userId}/authentication-methods/${encodeURIComponent(email.id)}`)).statusCode, 404);
      assert.equal((await call('DELETE', `/api/v2/users/${userId}/authentication-methods`)).statusCode, 204);
      assert.equal((await call('GET', `/api/v2/users/${userId}/authentication-methods`)).body, '[]');
    });
  });
});
