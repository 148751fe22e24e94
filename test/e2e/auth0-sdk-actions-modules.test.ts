/**
 * Actions modules end to end, with the built server over real HTTPS and the
 * official `auth0` SDK (ManagementClient, v7): a module whose code requires an
 * npm dependency (installed by the build step from a local registry stand-in,
 * GATEHOUSE_ACTIONS_REGISTRY) and reads its own sealed secret as
 * `actions.secrets`, published as version 1 and changed in its draft after; a
 * post-login and a credentials-exchange action that `require('actions:claims')`
 * with version 1, deployed and bound; a password-realm login and a
 * client_credentials exchange get the module's result in their tokens
 * (version 1's, not the draft's). Every operation of /actions/modules is
 * called through the SDK, with the refusals the SDK surfaces: 412 on delete
 * while in use, 409 on publishing nothing new, 404.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { decodeJwt } from 'jose';
import { LocalRegistry } from '../helpers/npm-registry.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, httpsRequest, type HttpResult } from './support/https.js';
import { sdkError } from './support/sdk-error.js';

const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Correct-Horse-9-battery';
const API = 'https://modules-api.example.com/';
const CLAIM = 'https://example.com/module';

const MODULE_V1 = `const { stamp } = require('gh-e2e-stamp');
exports.claimFor = (subject) => stamp(actions.secrets.PREFIX + ':' + subject);`;
const MODULE_DRAFT = 'exports.claimFor = () => "the unpublished draft";';

describe('auth0 SDK: Actions modules required by deployed actions', () => {
  let registry: LocalRegistry;
  let server: ServerProcess;
  let ca: Buffer;
  let management: ManagementClient;
  let realmClient: { client_id: string; client_secret: string };
  let machine: { client_id: string; client_secret: string };
  let moduleId = '';
  let v1 = '';

  const token = (body: Record<string, string>): Promise<HttpResult> =>
    httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    registry = new LocalRegistry();
    await registry.up();
    registry.publish({ name: 'gh-e2e-stamp', version: '1.0.0', files: { 'index.js': 'exports.stamp = (s) => `[${s}]`;' } });
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000', GATEHOUSE_ACTIONS_REGISTRY: registry.url } });
    ca = fs.readFileSync(server.certFile);
    const admin = server.admin();
    management = new ManagementClient({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(ca) as unknown as typeof fetch });

    await management.resourceServers.create({ identifier: API, name: 'Modules API' });
    const app = await management.clients.create({ name: 'Realm app', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', grant_types: [PASSWORD_REALM] });
    realmClient = { client_id: app.client_id!, client_secret: app.client_secret! };
    const m2m = await management.clients.create({ name: 'Machine', app_type: 'non_interactive', grant_types: ['client_credentials'] });
    machine = { client_id: m2m.client_id!, client_secret: m2m.client_secret! };
    await management.clientGrants.create({ client_id: machine.client_id, audience: API, scope: [] });
    await management.connections.create({ name: 'modules-db', strategy: 'auth0', enabled_clients: [realmClient.client_id] });
    await management.users.create({ connection: 'modules-db', email: 'modules@example.com', password: PASSWORD });
  });
  after(async () => {
    await cleanUp([server].filter(Boolean), [server?.dataDir].filter(Boolean) as string[]);
    await registry?.down();
  });

  it('creates, publishes, reads, lists, changes and rolls back a module through the SDK', async () => {
    const created = await management.actions.modules.create({
      name: 'claims',
      code: MODULE_V1,
      secrets: [{ name: 'PREFIX', value: 'sealed-module-prefix' }],
      dependencies: [{ name: 'gh-e2e-stamp', version: '1.0.0' }],
    });
    moduleId = created.id!;
    assert.equal(created.all_changes_published, false);
    assert.deepEqual(created.secrets?.map((s) => s.name), ['PREFIX']);
    assert.ok(!JSON.stringify(created).includes('sealed-module-prefix'));

    const version = await management.actions.modules.versions.create(moduleId);
    v1 = version.id!;
    assert.equal(version.version_number, 1);
    assert.deepEqual(version.dependencies, [{ name: 'gh-e2e-stamp', version: '1.0.0' }]);
    const nothingNew = await sdkError(() => management.actions.modules.versions.create(moduleId));
    assert.equal(nothingNew.statusCode, 409);

    assert.equal((await management.actions.modules.get(moduleId)).latest_version_number, 1);
    assert.equal((await management.actions.modules.versions.get(moduleId, v1)).code, MODULE_V1);
    const listed = await management.actions.modules.list();
    assert.deepEqual(listed.data.map((m) => m.name), ['claims']);
    assert.deepEqual((await management.actions.modules.versions.list(moduleId)).data.map((v) => v.id), [v1]);

    // The draft changes; version 1 does not. Rollback brings version 1 back into the draft, and the draft changes again.
    assert.equal((await management.actions.modules.update(moduleId, { code: MODULE_DRAFT })).all_changes_published, false);
    assert.equal((await management.actions.modules.rollback(moduleId, { module_version_id: v1 })).code, MODULE_V1);
    await management.actions.modules.update(moduleId, { code: MODULE_DRAFT });
    assert.equal((await sdkError(() => management.actions.modules.get('00000000-0000-4000-8000-000000000000'))).statusCode, 404);
  });

  it('a deployed post-login and credentials-exchange action require the module: its result is in the tokens', async () => {
    const postLogin = await management.actions.create({
      name: 'login-claim',
      supported_triggers: [{ id: 'post-login', version: 'v3' }],
      code: `const claims = require('actions:claims');
exports.onExecutePostLogin = async (event, api) => {
  api.idToken.setCustomClaim('${CLAIM}', claims.claimFor(event.user.email));
  api.accessToken.setCustomClaim('${CLAIM}', claims.claimFor('at'));
};`,
      modules: [{ module_name: 'claims', module_version_number: 1 }],
      deploy: true,
    });
    assert.deepEqual(postLogin.modules, [{ module_id: moduleId, module_name: 'claims', module_version_id: v1, module_version_number: 1 }]);
    const exchange = await management.actions.create({
      name: 'cc-claim',
      supported_triggers: [{ id: 'credentials-exchange', version: 'v2' }],
      code: `exports.onExecuteCredentialsExchange = async (event, api) => {
  api.accessToken.setCustomClaim('${CLAIM}', require('actions:claims').claimFor(event.client.client_id));
};`,
      modules: [{ module_id: moduleId, module_version_id: v1 }],
      deploy: true,
    });
    await management.actions.triggers.bindings.updateMany('post-login', { bindings: [{ ref: { type: 'action_id', value: postLogin.id! }, display_name: 'login-claim' }] });
    await management.actions.triggers.bindings.updateMany('credentials-exchange', { bindings: [{ ref: { type: 'action_id', value: exchange.id! }, display_name: 'cc-claim' }] });

    const using = await management.actions.modules.listActions(moduleId);
    assert.deepEqual(using.data.map((a) => [a.action_name, a.module_version_number]).sort(), [['cc-claim', 1], ['login-claim', 1]]);

    const login = await token({ grant_type: PASSWORD_REALM, client_id: realmClient.client_id, client_secret: realmClient.client_secret, realm: 'modules-db', username: 'modules@example.com', password: PASSWORD, audience: API, scope: 'openid email' });
    assert.equal(login.status, 200, `${login.text}\n${server.output().slice(-2000)}`);
    const tokens = login.json<{ id_token: string; access_token: string }>();
    assert.equal(decodeJwt(tokens.id_token)[CLAIM], '[sealed-module-prefix:modules@example.com]', 'version 1 of the module, its dependency and its secret');
    assert.equal(decodeJwt(tokens.access_token)[CLAIM], '[sealed-module-prefix:at]');

    const cc = await token({ grant_type: 'client_credentials', client_id: machine.client_id, client_secret: machine.client_secret, audience: API });
    assert.equal(cc.status, 200, cc.text);
    assert.equal(decodeJwt(cc.json<{ access_token: string }>().access_token)[CLAIM], `[sealed-module-prefix:${machine.client_id}]`);
    assert.ok(!server.output().includes('sealed-module-prefix'), 'the module secret is in no log line');
  });

  it('refuses to delete the module while actions use it (412); deletes it once they are gone', async () => {
    const refused = await sdkError(() => management.actions.modules.delete(moduleId));
    assert.equal(refused.statusCode, 412);
    assert.match(refused.body.message, /in use by one or more actions/);
    for (const trigger of ['post-login', 'credentials-exchange'] as const) await management.actions.triggers.bindings.updateMany(trigger, { bindings: [] });
    for (const action of (await management.actions.list()).data) await management.actions.delete(action.id!);
    await management.actions.modules.delete(moduleId);
    assert.equal((await sdkError(() => management.actions.modules.get(moduleId))).statusCode, 404);
  });
});
