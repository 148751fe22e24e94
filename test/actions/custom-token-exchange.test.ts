/**
 * Custom token exchange (RFC 8693) through app.inject on the real app, real
 * sandbox processes and the real database: a token exchange profile created
 * through the Management API names a deployed custom-token-exchange action,
 * which validates the subject token and sets the user; the tokens are that
 * user's. Refusals: a client that does not allow custom profiles, an unknown
 * subject_token_type, an action that rejects the subject token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { deployAction } from '../helpers/actions.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const SUBJECT_TYPE = 'https://legacy.example/session-token';
const CODE = `exports.onExecuteCustomTokenExchange = async (event, api) => {
  const [user, signature] = event.transaction.subject_token.split('.');
  if (signature !== event.secrets.SIGNATURE) return api.access.rejectInvalidSubjectToken('Bad signature');
  api.authentication.setUserByConnection('${REALM}', { user_id: user }, { creationBehavior: 'none' });
};`;

describe('custom token exchange', () => {
  let t: TestApp;
  let app: TestClient;
  let closed: TestClient;
  let userId: string;

  const exchange = (client: TestClient, subjectToken: string, subjectType = SUBJECT_TYPE) =>
    tokenRequest(t.app, { grant_type: GRANT, client_id: client.client_id, client_secret: client.client_secret, subject_token: subjectToken, subject_token_type: subjectType, scope: 'openid' });

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: [GRANT], config: { token_exchange: { allow_any_profile_of_type: ['custom_authentication'] } } });
    closed = await insertClient(t, { grant_types: [GRANT] });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'legacy@example.com', password: 'Correct horse battery staple 1' } });
    assert.equal(user.statusCode, 201, user.body);
    userId = (user.json() as { user_id: string }).user_id;
    const actionId = await deployAction(t, 'custom-token-exchange', { name: 'legacy-sessions', code: CODE, secrets: { SIGNATURE: 'sig' } });
    const profile = await t.management('POST', '/api/v2/token-exchange-profiles', { body: { name: 'legacy sessions', subject_token_type: SUBJECT_TYPE, action_id: actionId, type: 'custom_authentication' } });
    assert.equal(profile.statusCode, 201, profile.body);
  });
  after(() => t.close());

  it('issues tokens for the user the action sets', async () => {
    const res = await exchange(app, `${userId.split('|')[1]}.sig`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(decodeJwt((res.json() as { id_token: string }).id_token).sub, userId);
  });

  it('the action rejects a bad subject token: invalid_request with its reason', async () => {
    const res = await exchange(app, `${userId.split('|')[1]}.forged`);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), { error: 'invalid_request', error_description: 'Bad signature' });
  });

  it('refuses a client that does not allow custom profiles, and an unknown subject_token_type', async () => {
    const refused = await exchange(closed, 'x.sig');
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal((refused.json() as { error: string }).error, 'unauthorized_client');
    const unknown = await exchange(app, 'x.sig', 'https://other.example/token');
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.equal((unknown.json() as { error: string }).error, 'invalid_request');
  });
});
