/**
 * Actions modules through auth0-deploy-cli (`a0deploy`) against the built
 * server over HTTPS: a tenant folder with a module (`action-modules/`, code,
 * a secret, published) and a post-login action naming version 1 of it by
 * name, bound to its trigger, imports (the tool creates the module, publishes
 * it, resolves the action's module reference to ids through the versions
 * list, deploys and binds the action); the export writes the same module and
 * action back (secrets by name only); importing that export again keeps the
 * module's secret and publishes nothing new, and a second export is identical.
 * The module's code then runs: the action's test run requires it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { a0deploy as runA0deploy, filesOf } from './support/a0deploy.js';
import { cleanUp, httpsRequest, managementToken } from './support/https.js';

const MODULE_CODE = "exports.label = (who) => actions.secrets.LABEL + ':' + who;\n";
const ACTION_CODE = [
  "const helper = require('actions:labels');",
  'exports.onExecutePostLogin = async (event, api) => {',
  "  api.idToken.setCustomClaim('https://gatehouse.example/label', helper.label(event.user.user_id));",
  '};',
  '',
].join('\n');

const MODULE_FILE = {
  name: 'labels',
  code: './action-modules/labels/code.js',
  dependencies: [],
  secrets: [{ name: 'LABEL', value: 'module-label-secret' }],
  all_changes_published: true,
};
const ACTION_FILE = {
  name: 'labelled-login',
  code: './actions/labelled-login/code.js',
  runtime: 'node22',
  dependencies: [],
  secrets: [],
  supported_triggers: [{ id: 'post-login', version: 'v3' }],
  deployed: true,
  modules: [{ module_name: 'labels', module_version_number: 1 }],
};
const TRIGGERS = { 'post-login': [{ action_name: 'labelled-login', display_name: 'Labelled login' }] };

describe('Actions modules through auth0-deploy-cli', () => {
  let server: ServerProcess;
  let ca: Buffer;
  let token: string;
  let work: string;

  async function api<T = any>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await httpsRequest(`${server.baseUrl}/api/v2${url}`, {
      ca,
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (res.text ? res.json() : undefined) as T };
  }

  const a0deploy = (args: string[], success: string) => runA0deploy(server, work, args, success);

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' }, timeoutMs: 120_000 });
    ca = fs.readFileSync(server.certFile);
    token = await managementToken(server);
    work = tempDir('gatehouse-deploy-cli-modules-');
    const admin = server.admin();
    const common = { AUTH0_DOMAIN: server.domain, AUTH0_INCLUDED_ONLY: ['actionModules', 'actions', 'triggers'] };
    fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify({ ...common, AUTH0_CLIENT_ID: admin.client_id, AUTH0_CLIENT_SECRET: admin.client_secret }));
    fs.writeFileSync(path.join(work, 'config-token.json'), JSON.stringify({ ...common, AUTH0_ACCESS_TOKEN: token }));
  });
  after(() => cleanUp([server], [server.dataDir, work]));

  it('imports a module and an action that uses it, exports them the same, and round-trips unchanged', async () => {
    const input = path.join(work, 'tenant');
    fs.mkdirSync(path.join(input, 'action-modules', 'labels'), { recursive: true });
    fs.mkdirSync(path.join(input, 'actions', 'labelled-login'), { recursive: true });
    fs.mkdirSync(path.join(input, 'triggers'), { recursive: true });
    fs.writeFileSync(path.join(input, 'action-modules', 'labels.json'), JSON.stringify(MODULE_FILE, null, 2));
    fs.writeFileSync(path.join(input, 'action-modules', 'labels', 'code.js'), MODULE_CODE);
    fs.writeFileSync(path.join(input, 'actions', 'labelled-login.json'), JSON.stringify(ACTION_FILE, null, 2));
    fs.writeFileSync(path.join(input, 'actions', 'labelled-login', 'code.js'), ACTION_CODE);
    fs.writeFileSync(path.join(input, 'triggers', 'triggers.json'), JSON.stringify(TRIGGERS, null, 2));
    await a0deploy(['import', '-i', 'tenant'], 'Import Successful');

    const modules = (await api<{ modules: { id: string; name: string; latest_version_number?: number; all_changes_published: boolean; actions_using_module_total: number }[] }>('GET', '/actions/modules')).body.modules;
    assert.equal(modules.length, 1);
    assert.deepEqual([modules[0]!.name, modules[0]!.latest_version_number, modules[0]!.all_changes_published, modules[0]!.actions_using_module_total], ['labels', 1, true, 1]);
    const action = (await api<{ actions: { id: string; modules?: { module_name: string; module_version_number: number }[]; deployed_version?: { number: number } }[] }>('GET', '/actions/actions?actionName=labelled-login')).body.actions[0]!;
    assert.deepEqual(action.modules?.map((m) => [m.module_name, m.module_version_number]), [['labels', 1]]);
    assert.equal(action.deployed_version?.number, 1);
    const bound = (await api<{ bindings: { action: { name: string } }[] }>('GET', '/actions/triggers/post-login/bindings')).body.bindings;
    assert.deepEqual(bound.map((b) => b.action.name), ['labelled-login']);

    await a0deploy(['export', '-f', 'directory', '-o', 'first'], 'Export Successful');
    const first = filesOf(path.join(work, 'first'));
    assert.equal(first['action-modules/labels/code.js'], MODULE_CODE);
    assert.equal(first['actions/labelled-login/code.js'], ACTION_CODE);
    const exportedModule = JSON.parse(first['action-modules/labels.json']!) as Record<string, unknown>;
    assert.deepEqual(exportedModule.secrets, [{ name: 'LABEL' }], 'secrets by name only');
    assert.equal(exportedModule.all_changes_published, true);
    const exportedAction = JSON.parse(first['actions/labelled-login.json']!) as Record<string, unknown>;
    assert.deepEqual(exportedAction.modules, ACTION_FILE.modules);
    assert.ok(!Object.values(first).some((content) => content.includes('module-label-secret')), 'no secret value exported');

    await a0deploy(['import', '-i', 'first'], 'Import Successful');
    const versions = (await api<{ versions: unknown[] }>('GET', `/actions/modules/${modules[0]!.id}/versions`)).body.versions;
    assert.equal(versions.length, 1, 'nothing new to publish on the second import');
    await a0deploy(['export', '-f', 'directory', '-o', 'second'], 'Export Successful');
    assert.deepEqual(filesOf(path.join(work, 'second')), first);

    // The module's secret survived the round trip: the action's test run reads it through the module.
    const run = await api<{ payload: { commands: { args: unknown[] }[]; error?: unknown } }>('POST', `/actions/actions/${action.id}/test`, { payload: { event: { user: { user_id: 'auth0|dcli' } } } });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    assert.deepEqual(run.body.payload.commands.map((c) => c.args), [['https://gatehouse.example/label', 'module-label-secret:auth0|dcli']], JSON.stringify(run.body));
  });
});
