/**
 * POST /dbconnections/signup and /dbconnections/change_password, the email
 * verification page and the password reset page, through app.inject() on the
 * real app and an embedded SQLite database; mail is read from the in-memory outbox.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { newConnectionId } from '../../src/domain/connections/model.js';
import { CHANGE_PASSWORD_RATE_LIMIT, DbConnectionsService } from '../../src/authentication/dbconnections/service.js';
import { KyselyConnectionStore } from '../../src/storage/kysely/connections.js';
import { readOutbox } from '../../src/platform/mail/index.js';
import { verifyUserPassword } from '../../src/domain/users/login.js';
import { KyselyUserStore } from '../../src/storage/kysely/users.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';
import { inlineScripts } from '../helpers/browser.js';
import { PASSWORD_TOGGLE_HASH } from '../../src/authentication/pages/html.js';
import { PASSWORD_TOGGLE_SCRIPT } from '../../src/authentication/pages/password-toggle.js';

const STRONG = 'Str0ng-passw0rd';

describe('database connection endpoints', () => {
  let t: TestApp;
  let clientId: string;
  let otherClientId: string;
  const connections: Record<string, string> = {};

  async function connection(name: string, options: Record<string, unknown>, clients: string[]): Promise<string> {
    const now = new Date().toISOString();
    const id = newConnectionId();
    await new KyselyConnectionStore(t.ctx.database.db).insert(
      { tenant_id: t.tenant.id, id, name, display_name: null, strategy: 'auth0', options: options, is_domain_connection: 0, realms: [], metadata: {}, created_at: now, updated_at: now },
      clients,
    );
    connections[name] = id;
    return id;
  }

  before(async () => {
    t = await createTestApp();
    clientId = (await insertClient(t, { app_type: 'spa', token_endpoint_auth_method: 'none', client_secret_enc: null })).client_id;
    otherClientId = (await insertClient(t)).client_id;
    await connection('Username-Password-Authentication', { passwordPolicy: 'good' }, [clientId]);
    await connection('closed', { disable_signup: true }, [clientId]);
    await connection('other-only', {}, [otherClientId]);
    await connection('fair', { passwordPolicy: 'fair' }, [clientId]);
  });
  after(async () => {
    await t?.close();
  });

  const post = (url: string, payload: unknown): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
  const signup = (body: Record<string, unknown>) =>
    post('/dbconnections/signup', { client_id: clientId, connection: 'Username-Password-Authentication', password: STRONG, ...body });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN } });
  const postForm = (fields: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/reset-password', headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
  const mailTo = (to: string) => readOutbox(t.ctx).filter((m) => m.to === to);
  const linkIn = (text: string, pathName: string): string => {
    const match = new RegExp(`https://${DOMAIN.replace('.', '\\.')}(/${pathName}\\?ticket=[A-Za-z0-9_%-]+)`).exec(text);
    assert.ok(match, `no ${pathName} link in mail`);
    return match[1]!;
  };
  const hidden = (body: string, name: string): string => {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
    assert.ok(match, `no hidden ${name}`);
    return match[1]!;
  };

  describe('POST /dbconnections/signup', () => {
    it('creates the user and answers the recorded shape', async () => {
      const response = await signup({ email: 'Alice@Example.com', given_name: 'Alice' });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(response.headers['content-type'] as string, /^application\/json/);
      const body = response.json();
      assert.match(body._id, /^[0-9a-f]{24}$/);
      assert.deepEqual(body, { _id: body._id, email: 'Alice@Example.com', email_verified: false, given_name: 'Alice' });
      assert.deepEqual(Object.keys(body), ['_id', 'email', 'email_verified', 'given_name']);
      const row = await new KyselyUserStore(t.ctx.database.db).get(t.tenant.id, `auth0|${body._id}`);
      assert.equal(row?.email_lower, 'alice@example.com');
      assert.match(row?.password_hash ?? '', /^\$argon2id\$/);
      assert.equal(row?.email_verified, 0);
    });

    it('refuses a duplicate (case-insensitively) with user_exists', async () => {
      assert.equal((await signup({ email: 'dup@example.com' })).statusCode, 200);
      const response = await signup({ email: 'DUP@example.com' });
      assert.equal(response.statusCode, 400);
      assert.equal(response.body, '{"name":"BadRequestError","code":"user_exists","description":"The user already exists.","statusCode":400}');
    });

    it('refuses a weak password with the PasswordStrengthError body', async () => {
      const response = await signup({ email: 'weak@example.com', password: 'abc' });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), {
        name: 'PasswordStrengthError',
        message: 'Password is too weak',
        code: 'invalid_password',
        description: {
          rules: [
            { message: 'At least %d characters in length', format: [8], code: 'lengthAtLeast', verified: false },
            {
              message: 'Contain at least %d of the following %d types of characters:',
              code: 'containsAtLeast',
              format: [3, 4],
              items: [
                { message: 'lower case letters (a-z)', code: 'lowerCase', verified: true },
                { message: 'upper case letters (A-Z)', code: 'upperCase', verified: false },
                { message: 'numbers (i.e. 0-9)', code: 'numbers', verified: false },
                { message: 'special characters (e.g. !@#$%^&*)', code: 'specialCharacters', verified: false },
              ],
              verified: false,
            },
          ],
          verified: false,
        },
        policy:
          '* At least 8 characters in length\n* Contain at least 3 of the following 4 types of characters:\n * lower case letters (a-z)\n * upper case letters (A-Z)\n * numbers (i.e. 0-9)\n * special characters (e.g. !@#$%^&*)',
        statusCode: 400,
      });
      assert.deepEqual(mailTo('weak@example.com'), []);
    });

    it('applies the fair policy (lower, upper and digits all required)', async () => {
      const weak = await signup({ email: 'fair@example.com', connection: 'fair', password: 'abcdefgh!' });
      assert.equal(weak.statusCode, 400);
      assert.equal(weak.json().description.rules[1].code, 'shouldContain');
      assert.equal((await signup({ email: 'fair@example.com', connection: 'fair', password: 'abcDEF123' })).statusCode, 200);
    });

    it('refuses an unknown client, a disabled signup and a connection not enabled for the client', async () => {
      const unknown = await signup({ email: 'x1@example.com', client_id: 'nope' });
      assert.equal(unknown.statusCode, 400);
      assert.deepEqual(unknown.json(), { name: 'BadRequestError', code: 'invalid_client', description: 'Unknown client.', statusCode: 400 });
      const closed = await signup({ email: 'x2@example.com', connection: 'closed' });
      assert.equal(closed.statusCode, 400);
      assert.equal(closed.json().code, 'operation_not_allowed');
      const notEnabled = await signup({ email: 'x3@example.com', connection: 'other-only' });
      assert.equal(notEnabled.statusCode, 400);
      assert.deepEqual(notEnabled.json(), { name: 'BadRequestError', code: 'invalid_connection', description: 'Connection is not enabled for this client.', statusCode: 400 });
      const missing = await post('/dbconnections/signup', { client_id: clientId, connection: 'Username-Password-Authentication', email: 'x4@example.com' });
      assert.equal(missing.json().code, 'invalid_parameter');
      const extra = await signup({ email: 'x5@example.com', is_admin: true });
      assert.equal(extra.statusCode, 400);
      assert.equal(extra.json().description, 'Unknown parameter: is_admin');
    });

    it('requires a username on a requires_username connection', async () => {
      await connection('with-username', { requires_username: true }, [clientId]);
      const missing = await signup({ email: 'u1@example.com', connection: 'with-username' });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().description, 'Missing required parameter: username');
      const ok = await signup({ email: 'u1@example.com', connection: 'with-username', username: 'user1' });
      assert.equal(ok.statusCode, 200);
      assert.deepEqual(Object.keys(ok.json()), ['_id', 'email', 'username', 'email_verified']);
    });
  });

  describe('email verification', () => {
    const postVerify = (fields: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/verify-email', headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
    const verified = async (userId: string) => (await new KyselyUserStore(t.ctx.database.db).get(t.tenant.id, `auth0|${userId}`))?.email_verified;

    it('mails a link whose page verifies the address once, on POST', async () => {
      const created = await signup({ email: 'verify@example.com' });
      assert.equal(created.statusCode, 200);
      const userId = created.json()._id as string;
      const mails = mailTo('verify@example.com');
      assert.equal(mails.length, 1);
      const link = linkIn(mails[0]!.text, 'verify-email');

      // Fetching the link (a mail scanner, a preview) changes nothing and leaves it usable.
      for (let i = 0; i < 2; i++) {
        const form = await get(link);
        assert.equal(form.statusCode, 200);
        assert.match(form.headers['content-type'] as string, /^text\/html; charset=utf-8/);
        assert.equal(form.headers['cache-control'], 'no-store');
        assert.match(form.headers['content-security-policy'] as string, /^default-src 'none'; form-action 'self'; style-src 'sha256-[A-Za-z0-9+\/=]+' 'sha256-[A-Za-z0-9+\/=]+'; base-uri 'none'; frame-ancestors 'none'$/);
        assert.match(form.body, /<form method="post" action="\/verify-email">/);
        assert.match(form.body, /<strong>verify@example\.com<\/strong>/);
        assert.doesNotMatch(form.body, /<script/);
      }
      assert.equal(await verified(userId), 0);

      const form = await get(link);
      const ticket = hidden(form.body, 'ticket');
      const done = await postVerify({ ticket, csrf_token: hidden(form.body, 'csrf_token') });
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.body, /Email verified/);
      assert.equal(await verified(userId), 1);

      const again = await postVerify({ ticket, csrf_token: hidden(form.body, 'csrf_token') });
      assert.equal(again.statusCode, 400);
      assert.match(again.body, /not valid/);
      assert.equal((await get(link)).statusCode, 400);
      assert.equal((await get('/verify-email?ticket=forged')).statusCode, 400);
      assert.equal((await get('/verify-email')).statusCode, 400);
    });

    it('refuses a POST without the form\'s CSRF token and keeps the ticket usable', async () => {
      const created = await signup({ email: 'verify-csrf@example.com' });
      const link = linkIn(mailTo('verify-csrf@example.com')[0]!.text, 'verify-email');
      const form = await get(link);
      const ticket = hidden(form.body, 'ticket');

      const missing = await postVerify({ ticket });
      assert.equal(missing.statusCode, 403);
      assert.match(missing.body, /role="alert">This form could not be verified/);
      assert.equal((await postVerify({ ticket, csrf_token: 'A'.repeat(43) })).statusCode, 403);
      // The password reset form's token for the same ticket does not fit this form.
      const resetToken = new DbConnectionsService(t.ctx).csrfToken(t.tenant, ticket, 'password_reset');
      assert.equal((await postVerify({ ticket, csrf_token: resetToken })).statusCode, 403);
      assert.equal(await verified(created.json()._id as string), 0);

      assert.equal((await get(link)).statusCode, 200, 'still usable');
      assert.equal((await postVerify({ ticket, csrf_token: hidden(form.body, 'csrf_token') })).statusCode, 200);
      assert.equal((await postVerify({ csrf_token: hidden(form.body, 'csrf_token') })).statusCode, 400, 'no ticket');
    });

    it('writes the outbox file with mode 0600', () => {
      const file = path.join(t.dataDir, 'outbox.jsonl');
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    });
  });

  describe('POST /dbconnections/change_password', () => {
    it('answers the same for known and unknown emails and mails only the known one', async () => {
      assert.equal((await signup({ email: 'known@example.com' })).statusCode, 200);
      const body = { client_id: clientId, connection: 'Username-Password-Authentication' };
      const known = await post('/dbconnections/change_password', { ...body, email: 'KNOWN@example.com' });
      const unknown = await post('/dbconnections/change_password', { ...body, email: 'nobody@example.com' });
      for (const response of [known, unknown]) {
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
        assert.equal(response.body, "We've just sent you an email to reset your password.");
      }
      assert.equal(mailTo('known@example.com').filter((m) => m.subject === 'Reset your password').length, 1);
      assert.deepEqual(mailTo('nobody@example.com'), []);
    });
  });

  describe('POST /dbconnections/change_password per-IP+email limit', () => {
    const changeFrom = (ip: string, email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/dbconnections/change_password',
        remoteAddress: ip,
        headers: { host: DOMAIN, 'content-type': 'application/json' },
        payload: JSON.stringify({ client_id: clientId, connection: 'Username-Password-Authentication', email }),
      });
    const resetMails = (to: string) => mailTo(to).filter((m) => m.subject === 'Reset your password').length;

    it('answers 429 with the pair\'s headers after 10 requests and sends no more mail; other pairs are untouched', async () => {
      assert.equal((await signup({ email: 'flooded@example.com' })).statusCode, 200);
      for (let i = 0; i < CHANGE_PASSWORD_RATE_LIMIT.burst; i++) {
        const res = await changeFrom('10.7.0.1', i % 2 === 0 ? 'flooded@example.com' : 'FLOODED@example.com');
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['x-ratelimit-limit'], '10');
        assert.equal(res.headers['x-ratelimit-remaining'], String(9 - i));
      }
      assert.equal(resetMails('flooded@example.com'), 10);

      const refused = await changeFrom('10.7.0.1', 'flooded@example.com');
      assert.equal(refused.statusCode, 429);
      assert.deepEqual(refused.json(), {
        error: 'too_many_requests',
        error_description: 'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.',
      });
      assert.equal(refused.headers['x-ratelimit-limit'], '10');
      assert.equal(refused.headers['x-ratelimit-remaining'], '0');
      assert.ok(Number(refused.headers['x-ratelimit-reset']) > Date.now() / 1000);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(resetMails('flooded@example.com'), 10, 'no mail beyond the limit');

      // Another IP for the address, and another address from the IP, have their own buckets.
      assert.equal((await changeFrom('10.7.0.2', 'flooded@example.com')).statusCode, 200);
      assert.equal(resetMails('flooded@example.com'), 11);
      assert.equal((await changeFrom('10.7.0.1', 'someone-else@example.com')).statusCode, 200);
    });

    it('limits an address without an account exactly alike (no enumeration)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= CHANGE_PASSWORD_RATE_LIMIT.burst; i++) statuses.push((await changeFrom('10.7.0.3', 'ghost@example.com')).statusCode);
      assert.deepEqual(statuses, [...Array<number>(10).fill(200), 429]);
      assert.deepEqual(mailTo('ghost@example.com'), []);
    });
  });

  describe('password reset page', () => {
    let email: string;
    let connectionId: string;

    async function resetLink(address: string): Promise<string> {
      const before = mailTo(address).length;
      const response = await post('/dbconnections/change_password', { client_id: clientId, connection: 'Username-Password-Authentication', email: address });
      assert.equal(response.statusCode, 200);
      const mails = mailTo(address);
      assert.equal(mails.length, before + 1);
      return linkIn(mails.at(-1)!.text, 'reset-password');
    }

    before(async () => {
      email = 'reset@example.com';
      connectionId = connections['Username-Password-Authentication']!;
      assert.equal((await signup({ email })).statusCode, 200);
    });

    it('sets a new password end to end, once', async () => {
      const link = await resetLink(email);
      const form = await get(link);
      assert.equal(form.statusCode, 200);
      // The one script is the password fields' "Show password" control, allowed by its hash.
      const csp = form.headers['content-security-policy'] as string;
      assert.match(csp, /^default-src 'none'; form-action 'self'; style-src 'sha256-[A-Za-z0-9+\/=]+' 'sha256-[A-Za-z0-9+\/=]+'; script-src '[^']+'; base-uri 'none'; frame-ancestors 'none'$/);
      assert.ok(csp.includes(`script-src ${PASSWORD_TOGGLE_HASH};`), csp);
      assert.equal(form.headers['cache-control'], 'no-store');
      assert.match(form.body, /<label for="password">New password<\/label>/);
      assert.deepEqual(inlineScripts(form.body), [PASSWORD_TOGGLE_SCRIPT]);
      for (const field of ['password', 'password_confirmation']) {
        assert.match(form.body, new RegExp(`<input type="password" id="${field}" name="${field}" autocomplete="new-password" required[^>]*>\n<button type="button" data-password-toggle class="reveal" aria-controls="${field}" aria-pressed="false" data-show="Show password" data-hide="Hide password" hidden>Show password</button>`));
      }
      assert.doesNotMatch(form.body, /https?:\/\/(?!tenant)/);
      const ticket = hidden(form.body, 'ticket');
      const csrf = hidden(form.body, 'csrf_token');

      const newPassword = 'N3w-Secret-pass';
      const done = await postForm({ ticket, csrf_token: csrf, password: newPassword, password_confirmation: newPassword });
      assert.equal(done.statusCode, 200, done.body);
      assert.match(done.body, /Password changed/);
      const users = new KyselyUserStore(t.ctx.database.db);
      assert.ok(await verifyUserPassword(users, t.tenant.id, connectionId, email, newPassword));
      assert.equal(await verifyUserPassword(users, t.tenant.id, connectionId, email, STRONG), undefined);

      const reuse = await postForm({ ticket, csrf_token: csrf, password: 'An0ther-pass!', password_confirmation: 'An0ther-pass!' });
      assert.equal(reuse.statusCode, 400);
      assert.match(reuse.body, /not valid/);
      assert.equal((await get(link)).statusCode, 400);
      assert.ok(await verifyUserPassword(users, t.tenant.id, connectionId, email, newPassword));
    });

    it('refuses a missing or wrong CSRF token and keeps the ticket usable', async () => {
      const link = await resetLink(email);
      const form = await get(link);
      const ticket = hidden(form.body, 'ticket');
      const missing = await postForm({ ticket, password: 'Wh4tever-pass', password_confirmation: 'Wh4tever-pass' });
      assert.equal(missing.statusCode, 403);
      const wrong = await postForm({ ticket, csrf_token: 'A'.repeat(43), password: 'Wh4tever-pass', password_confirmation: 'Wh4tever-pass' });
      assert.equal(wrong.statusCode, 403);
      // A token of another ticket does not fit this one.
      const otherForm = await get(await resetLink(email));
      const foreign = await postForm({ ticket, csrf_token: hidden(otherForm.body, 'csrf_token'), password: 'Wh4tever-pass', password_confirmation: 'Wh4tever-pass' });
      assert.equal(foreign.statusCode, 403);
      assert.equal((await get(link)).statusCode, 200);
    });

    it('refuses a weak password on the page, leaving the ticket usable', async () => {
      const form = await get(await resetLink(email));
      const ticket = hidden(form.body, 'ticket');
      const csrf = hidden(form.body, 'csrf_token');
      const weak = await postForm({ ticket, csrf_token: csrf, password: 'short', password_confirmation: 'short' });
      assert.equal(weak.statusCode, 400);
      assert.match(weak.body, /role="alert">The password is too weak/);
      assert.match(weak.body, /At least 8 characters in length \(not met\)/);
      const mismatch = await postForm({ ticket, csrf_token: csrf, password: 'G00d-password', password_confirmation: 'G00d-passw0rd' });
      assert.equal(mismatch.statusCode, 400);
      assert.match(mismatch.body, /do not match/);
      const ok = await postForm({ ticket, csrf_token: csrf, password: 'G00d-password', password_confirmation: 'G00d-password' });
      assert.equal(ok.statusCode, 200);
    });

    it('escapes the email in the HTML', async () => {
      const nasty = '<script>alert(1)</script>@example.com';
      assert.equal((await signup({ email: nasty })).statusCode, 200);
      const form = await get(await resetLink(nasty));
      assert.equal(form.statusCode, 200);
      assert.deepEqual(inlineScripts(form.body), [PASSWORD_TOGGLE_SCRIPT], 'no script but the password control');
      assert.match(form.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;@example\.com/);
      const verify = await get(linkIn(mailTo(nasty)[0]!.text, 'verify-email'));
      assert.equal(verify.statusCode, 200);
      assert.doesNotMatch(verify.body, /<script>/);
      assert.match(verify.body, /&lt;script&gt;/);
    });
  });
});
