/**
 * Account linking driven by the official `auth0` SDK over real HTTPS against
 * the built server running as its own process
 * (test/e2e/clients/auth0-sdk-account-linking.ts does the calls): a link by
 * provider and user_id, the secondary's password then logging the primary
 * in, the refusals the SDK reports, the unlink, and a link by an end user
 * with the other account's ID token.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, runNode } from './support/https.js';

describe('auth0 SDK: users.identities.link and users.identities.delete', () => {
  let server: ServerProcess;
  let out: Record<string, any>;
  const part = (id: string) => id.slice(id.indexOf('|') + 1);

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    const admin = server.admin();
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-account-linking.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    out = JSON.parse(run.stdout) as Record<string, any>;
  });
  after(() => cleanUp([server], [server.dataDir]));

  it('links by provider and user_id: the primary\'s identities, the secondary with its profile', () => {
    const { primary, secondary } = out.ids;
    assert.equal(out.linked.length, 2);
    assert.deepEqual(out.linked[0], { connection: 'linking-main', user_id: part(primary), provider: 'auth0', isSocial: false });
    assert.deepEqual({ ...out.linked[1], profileData: undefined }, { connection: 'linking-second', user_id: part(secondary), provider: 'auth0', isSocial: false, profileData: undefined });
    assert.equal(out.linked[1].profileData.email, 'secondary@example.com');
    assert.deepEqual(out.primaryIdentities, out.linked);
  });

  it('the secondary is no user of its own, and its password logs the primary in', () => {
    assert.equal(out.secondaryGet.statusCode, 404);
    assert.equal(out.subBefore, out.ids.secondary);
    assert.equal(out.subLinked, out.ids.primary);
  });

  it('refuses linking the same identity again and a user to itself', () => {
    assert.equal(out.linkedAgain.statusCode, 409);
    assert.equal(out.linkedAgain.body.message, 'Specified identity already exists.');
    assert.equal(out.linkedToItself.statusCode, 400);
    assert.equal(out.linkedToItself.body.message, 'Main identity and the new one are the same.');
  });

  it('unlinks: the remaining identities, the secondary logging itself in again; the main identity stays', () => {
    assert.deepEqual(out.unlinked, [{ connection: 'linking-main', user_id: part(out.ids.primary), provider: 'auth0', isSocial: false }]);
    assert.equal(out.subUnlinked, out.ids.secondary);
    assert.equal(out.mainIdentity.statusCode, 400);
    assert.equal(out.mainIdentity.body.message, 'Main identity cannot be removed.');
  });

  it('an end user links with the other account\'s ID token; a tampered token is refused', () => {
    assert.equal(out.badToken.statusCode, 400);
    assert.equal(out.badToken.body.message, 'Invalid token (link_with).');
    assert.deepEqual(out.linkedByUser.map((i: { connection: string }) => i.connection), ['linking-main', 'linking-second']);
    assert.equal(out.subLinkedByUser, out.ids.primary);
  });
});
