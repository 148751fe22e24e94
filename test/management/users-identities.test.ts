/**
 * Account linking through the real app, on SQLite and PostgreSQL: POST
 * /api/v2/users/{id}/identities makes the secondary user an identity of the
 * primary (the secondary's credentials then log the primary in), DELETE
 * /api/v2/users/{id}/identities/{provider}/{user_id} makes it a user again;
 * every refusal changes nothing.
 */
import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT } from 'jose';
import { after, before, beforeEach, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { authorizeUrl, Browser, pkce, redirectParams } from '../helpers/browser.js';
import { postgresAvailable } from '../helpers/postgres.js';

const MAIN = 'linking-main';
const OTHER = 'linking-other';
const THIRD = 'linking-third';
const PASSWORD = 'Correct horse battery staple 1';
const REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';
const CALLBACK = 'https://app.example.com/callback';
const PASSWORDLESS_GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';

const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

interface Identity {
  connection: string;
  user_id: string;
  provider: string;
  isSocial: boolean;
  profileData?: Record<string, unknown>;
}
const part = (userId: string) => userId.slice(userId.indexOf('|') + 1);
const error = (statusCode: number, message: string, errorCode?: string) => ({
  statusCode,
  error: { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict' }[statusCode],
  message,
  ...(errorCode !== undefined && { errorCode }),
});

for (const postgres of [false, true]) {
  describe(`account linking (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && skipPostgres }, () => {
    let t: TestApp;
    let app: TestClient;
    let otherApp: TestClient;
    const connectionIds: Record<string, string> = {};
    let counter = 0;

    before(async () => {
      t = await createTestApp({ postgres });
      const spa = (name: string) =>
        insertClient(t, { name, app_type: 'spa', token_endpoint_auth_method: 'none', client_secret_enc: null, grant_types: [REALM_GRANT, 'authorization_code', PASSWORDLESS_GRANT, 'refresh_token'], config: { callbacks: [CALLBACK] } });
      app = await spa('Linking app');
      otherApp = await spa('Another app');
      for (const name of [MAIN, OTHER, THIRD]) {
        const res = await t.management('POST', '/api/v2/connections', { body: { name, strategy: 'auth0', enabled_clients: [app.client_id, otherApp.client_id] } });
        assert.equal(res.statusCode, 201, res.body);
        connectionIds[name] = (res.json() as { id: string }).id;
      }
      const email = await t.management('POST', '/api/v2/connections', {
        body: { name: 'email', strategy: 'email', enabled_clients: [app.client_id], options: { email: { syntax: 'liquid', subject: 'Your code', body: '<p>Code {{ code }}</p>' } } },
      });
      assert.equal(email.statusCode, 201, email.body);
    });
    after(() => t.close());

    async function newUser(connection: string, extra: Record<string, unknown> = {}): Promise<{ id: string; email: string }> {
      const email = `user${++counter}@example.com`;
      const res = await t.management('POST', '/api/v2/users', { body: { connection, email, password: PASSWORD, verify_email: false, ...extra } });
      assert.equal(res.statusCode, 201, res.body);
      return { id: (res.json() as { user_id: string }).user_id, email };
    }

    const login = (email: string, realm: string, options: { client?: TestClient; scope?: string; audience?: string; password?: string } = {}) =>
      tokenRequest(t.app, {
        grant_type: REALM_GRANT,
        client_id: (options.client ?? app).client_id,
        username: email,
        password: options.password ?? PASSWORD,
        realm,
        scope: options.scope ?? 'openid',
        ...(options.audience !== undefined && { audience: options.audience }),
      });

    async function idToken(email: string, realm: string, client?: TestClient): Promise<string> {
      const res = await login(email, realm, client ? { client } : {});
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { id_token: string }).id_token;
    }

    /** An end user's Management API token, with update:current_user_identities. */
    async function userToken(email: string, realm: string): Promise<string> {
      const res = await login(email, realm, { scope: 'openid update:current_user_identities', audience: `https://${DOMAIN}/api/v2/` });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { access_token: string }).access_token;
    }

    const link = (primary: string, body: unknown, token?: string) =>
      t.management('POST', `/api/v2/users/${encodeURIComponent(primary)}/identities`, { body, ...(token !== undefined && { token }) });
    const unlink = (primary: string, provider: string, userId: string, token?: string) =>
      t.management('DELETE', `/api/v2/users/${encodeURIComponent(primary)}/identities/${provider}/${encodeURIComponent(userId)}`, token !== undefined ? { token } : {});
    const getUser = (id: string) => t.management('GET', `/api/v2/users/${encodeURIComponent(id)}`);
    const identitiesOf = async (id: string) => {
      const res = await getUser(id);
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { identities: Identity[] }).identities;
    };
    const subOf = async (email: string, realm: string) => {
      const res = await login(email, realm);
      return res.statusCode === 200 ? (decodeJwt((res.json() as { id_token: string }).id_token).sub as string) : `refused ${res.statusCode}`;
    };

    describe('linking with update:users', () => {
      it('makes the secondary an identity of the primary, answered 201 with the identities in the service\'s shape', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER, { given_name: 'Sec', user_metadata: { lang: 'fr' } });
        const res = await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) });
        assert.equal(res.statusCode, 201, res.body);
        const identities = res.json() as Identity[];
        assert.deepEqual(identities[0], { connection: MAIN, user_id: part(primary.id), provider: 'auth0', isSocial: false });
        const { profileData, ...identity } = identities[1]!;
        assert.deepEqual(identity, { connection: OTHER, user_id: part(secondary.id), provider: 'auth0', isSocial: false });
        assert.equal(profileData?.email, secondary.email);
        assert.equal(profileData?.email_verified, false);
        assert.equal(profileData?.given_name, 'Sec');
        assert.equal(profileData?.name, secondary.email);
        assert.equal(identities.length, 2);
        assert.deepEqual(await identitiesOf(primary.id), identities, 'GET /users/{id} shows every identity');
      });

      it('the secondary is no user of its own any more: 404, not in lists, searches or the role it had', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        const role = await t.management('POST', '/api/v2/roles', { body: { name: `linked-role-${counter}` } });
        const roleId = (role.json() as { id: string }).id;
        assert.equal((await t.management('POST', `/api/v2/users/${encodeURIComponent(secondary.id)}/roles`, { body: { roles: [roleId] } })).statusCode, 204);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id), connection_id: connectionIds[OTHER] })).statusCode, 201);

        assert.deepEqual((await getUser(secondary.id)).json(), error(404, 'The user does not exist.', 'inexistent_user'));
        const all = (await t.management('GET', '/api/v2/users?per_page=100')).json() as { user_id: string }[];
        assert.ok(all.some((u) => u.user_id === primary.id));
        assert.ok(!all.some((u) => u.user_id === secondary.id), 'not listed');
        const totals = (await t.management('GET', '/api/v2/users?include_totals=true&per_page=100')).json() as { total: number; users: unknown[] };
        assert.equal(totals.total, totals.users.length, 'the total counts users only');
        const byEmail = (await t.management('GET', `/api/v2/users?q=${encodeURIComponent(`email:"${secondary.email}"`)}&search_engine=v3`)).json() as unknown[];
        assert.deepEqual(byEmail, [], 'a search of its own fields does not find it');
        const roleUsers = (await t.management('GET', `/api/v2/roles/${roleId}/users`)).json() as { user_id: string }[];
        assert.deepEqual(roleUsers, [], 'its roles went with it');
        assert.equal((await t.management('DELETE', `/api/v2/users/${encodeURIComponent(secondary.id)}`)).statusCode, 204);
        assert.equal((await identitiesOf(primary.id)).length, 2, 'DELETE /users/{secondary} deletes nothing');
      });

      it('finds the primary through the linked identity: search by identities.connection and users-by-email', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(THIRD);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) })).statusCode, 201);
        const found = (await t.management('GET', `/api/v2/users?search_engine=v3&q=${encodeURIComponent(`identities.connection:"${THIRD}"`)}`)).json() as { user_id: string }[];
        assert.ok(found.some((u) => u.user_id === primary.id), 'the primary, through its linked identity');
        assert.ok(!found.some((u) => u.user_id === secondary.id));
        const byEmail = (await t.management('GET', `/api/v2/users-by-email?email=${encodeURIComponent(secondary.email)}`)).json() as { user_id: string; identities: Identity[] }[];
        assert.deepEqual(byEmail.map((u) => u.user_id), [primary.id]);
        assert.equal(byEmail[0]!.identities.length, 2);
      });

      it('the secondary\'s password logs the primary in', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        assert.equal(await subOf(secondary.email, OTHER), secondary.id);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) })).statusCode, 201);
        assert.equal(await subOf(secondary.email, OTHER), primary.id, 'the primary\'s sub');
        assert.equal(await subOf(primary.email, MAIN), primary.id);
        const wrong = await login(secondary.email, OTHER, { password: 'not the password' });
        assert.equal(wrong.statusCode, 403, 'a wrong password is still refused');
      });

      it('a passwordless login of a linked email| identity answers for the primary', async () => {
        const passwordless = async (address: string) => {
          const start = await t.app.inject({
            method: 'POST',
            url: '/passwordless/start',
            headers: { host: DOMAIN, 'content-type': 'application/json' },
            payload: JSON.stringify({ client_id: app.client_id, connection: 'email', email: address, send: 'code' }),
          });
          assert.equal(start.statusCode, 200, start.body);
          const otp = /code for .* is (\d+)/.exec(t.ctx.mailer.outbox!.messages().filter((m) => m.to === address).at(-1)!.text)![1]!;
          const res = await tokenRequest(t.app, { grant_type: PASSWORDLESS_GRANT, client_id: app.client_id, realm: 'email', username: address, otp, scope: 'openid' });
          assert.equal(res.statusCode, 200, res.body);
          return decodeJwt((res.json() as { id_token: string }).id_token).sub as string;
        };
        const primary = await newUser(MAIN);
        const emailUser = await passwordless('code-login@example.com');
        assert.match(emailUser, /^email\|/);
        const linked = await link(primary.id, { provider: 'email', user_id: part(emailUser) });
        assert.equal(linked.statusCode, 201, linked.body);
        assert.deepEqual((linked.json() as Identity[]).map((i) => [i.connection, i.provider]), [[MAIN, 'auth0'], ['email', 'email']]);
        assert.equal(await passwordless('code-login@example.com'), primary.id);
        assert.equal((await getUser(emailUser)).statusCode, 404, 'no second email| user was made');
      });

      it('the hosted login page with the secondary\'s password answers for the primary', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) })).statusCode, 201);
        const { verifier, challenge } = pkce();
        const authorize = authorizeUrl(app.client_id, CALLBACK, { scope: 'openid', connection: OTHER, code_challenge: challenge });
        const code = redirectParams(await new Browser(t).login(authorize, secondary.email, PASSWORD), CALLBACK).get('code')!;
        const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: app.client_id, code, code_verifier: verifier, redirect_uri: CALLBACK });
        assert.equal(exchanged.statusCode, 200, exchanged.body);
        assert.equal(decodeJwt((exchanged.json() as { id_token: string }).id_token).sub, primary.id);
      });

      it('the secondary\'s refresh tokens are revoked when it is linked', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        const res = await login(secondary.email, OTHER, { scope: 'openid offline_access' });
        assert.equal(res.statusCode, 200, res.body);
        const refreshToken = (res.json() as { refresh_token: string }).refresh_token;
        assert.ok(refreshToken, res.body);
        const refresh = () => tokenRequest(t.app, { grant_type: 'refresh_token', client_id: app.client_id, refresh_token: refreshToken });
        assert.equal((await refresh()).statusCode, 200);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) })).statusCode, 201);
        const after = await refresh();
        assert.equal(after.statusCode, 403, after.body);
        assert.equal((after.json() as { error: string }).error, 'invalid_grant');
        // Revoked, not only orphaned: unlinked again, the user does not get them back.
        assert.equal((await unlink(primary.id, 'auth0', part(secondary.id))).statusCode, 200);
        assert.equal((await refresh()).statusCode, 403);
      });

      it('deleting the primary deletes its identities: the secondary\'s email is free again in its connection', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) })).statusCode, 201);
        assert.equal((await t.management('DELETE', `/api/v2/users/${encodeURIComponent(primary.id)}`)).statusCode, 204);
        assert.equal((await login(secondary.email, OTHER)).statusCode, 403);
        const again = await t.management('POST', '/api/v2/users', { body: { connection: OTHER, email: secondary.email, password: PASSWORD } });
        assert.equal(again.statusCode, 201, again.body);
      });
    });

    describe('refusals of a link, each changing nothing', () => {
      let primary: { id: string; email: string };
      let secondary: { id: string; email: string };

      beforeEach(async () => {
        primary = await newUser(MAIN);
        secondary = await newUser(OTHER);
      });

      async function unchanged(): Promise<void> {
        assert.equal((await identitiesOf(primary.id)).length, 1, 'the primary has its own identity only');
        assert.equal((await identitiesOf(secondary.id)).length, 1, 'the secondary is still a user');
        assert.equal(await subOf(secondary.email, OTHER), secondary.id);
      }

      it('a user linked to itself', async () => {
        const res = await link(primary.id, { provider: 'auth0', user_id: part(primary.id) });
        assert.deepEqual(res.json(), error(400, 'Main identity and the new one are the same.'));
        await unchanged();
      });

      it('an unknown primary (404) or secondary (400), or a secondary not in the connection named', async () => {
        const noPrimary = await link('auth0|000000000000000000000000', { provider: 'auth0', user_id: part(secondary.id) });
        assert.deepEqual(noPrimary.json(), error(404, 'The user does not exist.', 'inexistent_user'));
        const noSecondary = await link(primary.id, { provider: 'auth0', user_id: '000000000000000000000000' });
        assert.deepEqual(noSecondary.json(), error(400, 'Linking to an inexistent identity is not allowed.'));
        const wrongProvider = await link(primary.id, { provider: 'email', user_id: part(secondary.id) });
        assert.deepEqual(wrongProvider.json(), error(400, 'Linking to an inexistent identity is not allowed.'));
        const wrongConnection = await link(primary.id, { provider: 'auth0', user_id: part(secondary.id), connection_id: connectionIds[THIRD] });
        assert.deepEqual(wrongConnection.json(), error(400, 'Linking to an inexistent identity is not allowed.'));
        const unknownConnection = await link(primary.id, { provider: 'auth0', user_id: part(secondary.id), connection_id: 'con_0000000000000000' });
        assert.deepEqual(unknownConnection.json(), error(400, 'The provider/connection is not configured.'));
        await unchanged();
      });

      it('an identity already linked, to this primary (409) or to another (400), and a secondary with identities of its own', async () => {
        const third = await newUser(THIRD);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(third.id) })).statusCode, 201);
        const again = await link(primary.id, { provider: 'auth0', user_id: part(third.id) });
        assert.deepEqual(again.json(), error(409, 'Specified identity already exists.', 'conflict'));
        const elsewhere = await link(secondary.id, { provider: 'auth0', user_id: part(third.id) });
        assert.deepEqual(elsewhere.json(), error(400, 'Unable to link with the secondary account.'));
        const withIdentities = await link(secondary.id, { provider: 'auth0', user_id: part(primary.id) });
        assert.deepEqual(withIdentities.json(), error(400, 'Unable to link with the secondary account.'));
        assert.equal((await identitiesOf(primary.id)).length, 2);
        assert.equal((await identitiesOf(secondary.id)).length, 1);
        assert.equal(await subOf(third.email, THIRD), primary.id);
      });

      it('a second identity of a connection the primary already has one in', async () => {
        const sameConnection = await newUser(MAIN);
        const res = await link(primary.id, { provider: 'auth0', user_id: part(sameConnection.id) });
        assert.deepEqual(res.json(), error(409, `The user already has an identity in the connection ${MAIN}.`, 'conflict'));
        assert.equal((await identitiesOf(sameConnection.id)).length, 1);
        await unchanged();
      });

      it('bodies of the wrong shape, with the service\'s validation messages', async () => {
        const cases: [unknown, string][] = [
          [{}, "Payload validation error: 'Too few properties defined (0), minimum 1'."],
          [{ provider: 'auth0' }, "Payload validation error: 'Missing required property: user_id'."],
          [{ user_id: part(secondary.id) }, "Payload validation error: 'Missing required property: provider'."],
          [{ provider: 'auth0', user_id: part(secondary.id), link_with: 'a.b.c' }, "Payload validation error: 'link_with cannot be sent with provider, user_id or connection_id'."],
        ];
        for (const [body, message] of cases) {
          const res = await link(primary.id, body);
          assert.deepEqual(res.json(), error(400, message, 'invalid_body'), JSON.stringify(body));
        }
        for (const body of [
          { provider: 'nobody', user_id: 'x' },
          { provider: 'auth0', user_id: part(secondary.id), extra: 1 },
          { provider: 'auth0', user_id: part(secondary.id), connection_id: 'con_short' },
          { provider: 'auth0', user_id: '' },
          { link_with: 7 },
        ]) {
          const res = await link(primary.id, body);
          assert.equal(res.statusCode, 400, JSON.stringify(body));
          assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body', res.body);
        }
        await unchanged();
      });

      it('a link_with token that is not the tenant\'s, expired, for another client or not an ID token at all', async () => {
        const ownToken = await idToken(secondary.email, OTHER);
        const invalid = error(400, 'Invalid token (link_with).');
        assert.deepEqual((await link(primary.id, { link_with: 'not-a-jwt' })).json(), invalid);
        // Signed by a key of another issuer, with this tenant's kid and claims.
        const { privateKey } = await generateKeyPair('RS256');
        const claims = decodeJwt(ownToken);
        const { kid } = JSON.parse(Buffer.from(ownToken.split('.')[0]!, 'base64url').toString()) as { kid: string };
        const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
        assert.deepEqual((await link(primary.id, { link_with: forged })).json(), invalid);
        const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32));
        assert.deepEqual((await link(primary.id, { link_with: hs })).json(), error(400, 'JWT (link_with) must have an alg of RS256.'));
        await withClockAdvanced(t, 30 * 24 * 3600 * 1000, async () => {
          const token = await t.managementToken();
          assert.deepEqual((await link(primary.id, { link_with: ownToken }, token)).json(), invalid, 'expired');
        });
        // Valid ID tokens, but the calling token's client (azp) is the admin client, not the app they were issued to.
        assert.deepEqual(
          (await link(primary.id, { link_with: ownToken })).json(),
          error(400, "JWT (link_with) must have an aud claim that matches that of the calling token's azp."),
        );
        const management = await t.managementToken();
        assert.deepEqual(
          (await link(primary.id, { link_with: management })).json(),
          error(400, "JWT (link_with) must have an aud claim that matches that of the calling token's azp."),
          'an access token is no ID token of the caller',
        );
        await unchanged();
      });

      it('scopes: a token without update:users, and an end user acting on another user or naming the secondary', async () => {
        const narrow = await t.managementToken('read:users');
        const res = await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) }, narrow);
        assert.deepEqual(res.json(), error(403, 'Insufficient scope, expected any of: update:users, update:current_user_identities', 'insufficient_scope'));
        const own = await userToken(primary.email, MAIN);
        const named = await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) }, own);
        assert.deepEqual(named.json(), error(403, 'Insufficient scope, expected any of: update:users', 'insufficient_scope'), 'an end user links with an ID token only');
        const other = await link(secondary.id, { link_with: await idToken(primary.email, MAIN) }, own);
        assert.deepEqual(other.json(), error(403, 'User to be acted on does not match subject in bearer token.', 'insufficient_scope'));
        await unchanged();
      });
    });

    describe('linking by an end user with link_with', () => {
      it('links the account whose ID token the user\'s own client received, then unlinks it', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        const own = await userToken(primary.email, MAIN);
        const res = await link(primary.id, { link_with: await idToken(secondary.email, OTHER) }, own);
        assert.equal(res.statusCode, 201, res.body);
        assert.deepEqual((res.json() as Identity[]).map((i) => i.connection), [MAIN, OTHER]);
        assert.equal(await subOf(secondary.email, OTHER), primary.id);
        const back = await unlink(primary.id, 'auth0', part(secondary.id), own);
        assert.equal(back.statusCode, 200, back.body);
        assert.deepEqual((back.json() as Identity[]).map((i) => i.connection), [MAIN]);
        assert.equal(await subOf(secondary.email, OTHER), secondary.id);
      });

      it('refuses an ID token issued to another client than the calling token\'s', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        const own = await userToken(primary.email, MAIN);
        const res = await link(primary.id, { link_with: await idToken(secondary.email, OTHER, otherApp) }, own);
        assert.deepEqual(res.json(), error(400, "JWT (link_with) must have an aud claim that matches that of the calling token's azp."));
        assert.equal((await identitiesOf(primary.id)).length, 1);
      });
    });

    describe('unlinking', () => {
      it('makes the identity a user again, with its profile and no metadata; the answer is the remaining identities', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER, { given_name: 'Back', user_metadata: { lang: 'fr' }, app_metadata: { plan: 'gold' } });
        const third = await newUser(THIRD);
        for (const user of [secondary, third]) assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(user.id) })).statusCode, 201);
        const res = await unlink(primary.id, 'auth0', part(secondary.id));
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual((res.json() as Identity[]).map((i) => [i.connection, i.user_id]), [[MAIN, part(primary.id)], [THIRD, part(third.id)]]);
        const back = await getUser(secondary.id);
        assert.equal(back.statusCode, 200, back.body);
        const user = back.json() as { email: string; given_name: string; user_metadata: object; app_metadata: object; identities: Identity[] };
        assert.equal(user.email, secondary.email);
        assert.equal(user.given_name, 'Back');
        assert.deepEqual(user.user_metadata, {});
        assert.deepEqual(user.app_metadata, {});
        assert.deepEqual(user.identities, [{ connection: OTHER, user_id: part(secondary.id), provider: 'auth0', isSocial: false }]);
        assert.equal(await subOf(secondary.email, OTHER), secondary.id, 'its password logs itself in again');
        assert.equal(await subOf(third.email, THIRD), primary.id);
      });

      it('refuses the primary\'s main identity (400), an identity not linked to it or an unknown user (404), and other users\' tokens', async () => {
        const primary = await newUser(MAIN);
        const secondary = await newUser(OTHER);
        const stranger = await newUser(THIRD);
        assert.equal((await link(primary.id, { provider: 'auth0', user_id: part(secondary.id) })).statusCode, 201);
        assert.deepEqual((await unlink(primary.id, 'auth0', part(primary.id))).json(), error(400, 'Main identity cannot be removed.'));
        const notLinked = error(404, 'The user has no linked identity with this provider and user_id.');
        assert.deepEqual((await unlink(primary.id, 'auth0', part(stranger.id))).json(), notLinked);
        assert.deepEqual((await unlink(primary.id, 'email', part(secondary.id))).json(), notLinked);
        assert.deepEqual((await unlink(stranger.id, 'auth0', part(secondary.id))).json(), notLinked);
        assert.deepEqual((await unlink('auth0|nobody', 'auth0', part(secondary.id))).json(), error(404, 'The user does not exist.', 'inexistent_user'));
        const badProvider = await unlink(primary.id, 'nobody', part(secondary.id));
        assert.equal(badProvider.statusCode, 400);
        assert.equal((badProvider.json() as { errorCode: string }).errorCode, 'invalid_uri');
        const narrow = await t.managementToken('read:users');
        assert.equal((await unlink(primary.id, 'auth0', part(secondary.id), narrow)).statusCode, 403);
        const strangers = await userToken(stranger.email, THIRD);
        assert.deepEqual(
          (await unlink(primary.id, 'auth0', part(secondary.id), strangers)).json(),
          error(403, 'User to be acted on does not match subject in bearer token.', 'insufficient_scope'),
        );
        assert.equal((await identitiesOf(primary.id)).length, 2, 'still linked');
        assert.equal(await subOf(secondary.email, OTHER), primary.id);
      });
    });
  });
}
