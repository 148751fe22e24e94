/**
 * Actions through the service's own tools against the built server over
 * HTTPS: the `auth0` SDK's actions and token exchange profile calls, then
 * auth0-deploy-cli (`a0deploy`) importing a tenant folder with three actions
 * (post-login adding roles and a namespaced claim and denying a blocked
 * country, credentials-exchange adding a claim, pre-user-registration
 * refusing a domain) bound to their triggers, exporting it (the same actions,
 * code and bindings; secrets by name only, as the tool writes them),
 * importing that export again and exporting once more, identical.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, httpsRequest, managementToken, runNode } from './support/https.js';

const BIN = path.join(ROOT, 'node_modules/auth0-deploy-cli/lib/index.js');

const ACTIONS: { file: Record<string, unknown>; code: string }[] = [
  {
    file: {
      name: 'add-roles',
      code: './actions/add-roles/code.js',
      runtime: 'node22',
      dependencies: [],
      secrets: [{ name: 'BLOCKED_COUNTRY', value: 'XX' }],
      supported_triggers: [{ id: 'post-login', version: 'v3' }],
      deployed: true,
    },
    code: [
      'exports.onExecutePostLogin = async (event, api) => {',
      '  if (event.request.geoip && event.request.geoip.countryCode === event.secrets.BLOCKED_COUNTRY) {',
      "    return api.access.deny('Logins from your country are not allowed.');",
      '  }',
      '  const roles = (event.authorization && event.authorization.roles) || [];',
      "  api.idToken.setCustomClaim('https://gatehouse.example/roles', roles);",
      "  api.accessToken.setCustomClaim('https://gatehouse.example/roles', roles);",
      '};',
      '',
    ].join('\n'),
  },
  {
    file: {
      name: 'tenant-claim',
      code: './actions/tenant-claim/code.js',
      runtime: 'node22',
      dependencies: [],
      secrets: [],
      supported_triggers: [{ id: 'credentials-exchange', version: 'v2' }],
      deployed: true,
    },
    code: "exports.onExecuteCredentialsExchange = async (event, api) => {\n  api.accessToken.setCustomClaim('https://gatehouse.example/tenant', 'acme');\n};\n",
  },
  {
    file: {
      name: 'refuse-domains',
      code: './actions/refuse-domains/code.js',
      runtime: 'node22',
      dependencies: [],
      secrets: [{ name: 'ALLOWED_DOMAIN', value: 'allowed.example' }],
      supported_triggers: [{ id: 'pre-user-registration', version: 'v2' }],
      deployed: true,
    },
    code: [
      'exports.onExecutePreUserRegistration = async (event, api) => {',
      "  const domain = (event.user.email || '').split('@')[1];",
      '  if (domain !== event.secrets.ALLOWED_DOMAIN) {',
      "    api.access.deny('domain_not_allowed', 'Sign-ups from this email domain are not allowed.');",
      '  }',
      '};',
      '',
    ].join('\n'),
  },
];

const TRIGGERS = {
  'post-login': [{ action_name: 'add-roles', display_name: 'Roles in tokens' }],
  'credentials-exchange': [{ action_name: 'tenant-claim', display_name: 'Tenant claim' }],
  'pre-user-registration': [{ action_name: 'refuse-domains', display_name: 'Allowed domains' }],
};

/** Every file of a folder, by relative path, with its content. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('Actions through the auth0 SDK and auth0-deploy-cli', () => {
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

  async function a0deploy(args: string[], success: string): Promise<void> {
    const run = await runNode([BIN, ...args, '-c', path.join(work, 'config.json')], {
      cwd: work,
      env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile, FORCE_COLOR: '0', NO_COLOR: '1' },
      timeoutMs: 600_000,
    });
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 0, `a0deploy ${args.join(' ')} failed:\n${output}\n${server.output().slice(-3000)}`);
    assert.match(output, new RegExp(success));
    assert.doesNotMatch(output, / - error: /, output);
  }

  before(async () => {
    server = await startServerProcess({
      // Builds of dependencies fail at once: no registry answers there.
      env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000', GATEHOUSE_ACTIONS_REGISTRY: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' },
      timeoutMs: 120_000,
    });
    ca = fs.readFileSync(server.certFile);
    token = await managementToken(server);
    work = tempDir('gatehouse-deploy-cli-actions-');
    const admin = server.admin();
    fs.writeFileSync(
      path.join(work, 'config.json'),
      JSON.stringify({ AUTH0_DOMAIN: server.domain, AUTH0_CLIENT_ID: admin.client_id, AUTH0_CLIENT_SECRET: admin.client_secret, AUTH0_INCLUDED_ONLY: ['actions', 'triggers'] }),
    );
  });
  after(() => cleanUp([server], [server.dataDir, work]));

  it('the auth0 SDK creates, lists, changes, deploys, rolls back, binds and deletes actions, and manages token exchange profiles', async () => {
    const admin = server.admin();
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-actions.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    const out = JSON.parse(run.stdout) as Record<string, any>;
    assert.equal(out.created.status, 'built');
    assert.deepEqual(out.created.secrets.map((s: { name: string }) => s.name), ['API_KEY']);
    assert.ok(!run.stdout.includes('sdk-secret-value'), 'no secret value in any answer');
    assert.ok(!server.output().includes('sdk-secret-value'), 'nor in the server\'s log');
    assert.equal(out.secondDeployed, 1);
    assert.deepEqual(out.names, ['sdk-post-login', 'sdk-cc']);
    assert.equal(out.got, 'sdk-post-login');
    assert.equal(out.updated, false);
    assert.deepEqual(out.v1, { number: 1, status: 'built' });
    assert.deepEqual(out.versions, [2, 1]);
    assert.equal(out.versionCode, 'exports.onExecutePostLogin = async (event, api) => { /* v1 */ };');
    assert.equal(out.rollback, 3);
    assert.equal(out.deployedCode, 'exports.onExecutePostLogin = async (event, api) => { /* v1 */ };');
    assert.ok(out.triggers.includes('post-login@v3') && out.triggers.includes('credentials-exchange@v2'));
    assert.deepEqual(out.bound, [['SDK', 'sdk-post-login']]);
    assert.deepEqual(out.bindings, ['sdk-post-login']);
    assert.deepEqual(out.execution, { statusCode: 404, message: 'That execution does not exist.' });
    assert.equal(out.pendingStatus, 'pending');
    assert.deepEqual(out.deployPending, { statusCode: 400, message: "A draft must be in the 'built' state before it can be deployed." });
    assert.deepEqual(out.missing, { statusCode: 404, message: 'That action does not exist.' });
    assert.match(out.profile.id, /^tep_/);
    assert.deepEqual(out.profiles, ['SDK profile']);
    assert.equal(out.profileGot, 'SDK renamed');
    assert.equal(out.profileGone.statusCode, 404);
    assert.equal(out.boundDelete.statusCode, 400);
    assert.equal(out.left, 0);
  });

  it('a0deploy imports a tenant folder with three actions bound to their triggers; exports it the same; imports and exports that again unchanged', async () => {
    const input = path.join(work, 'tenant');
    fs.mkdirSync(path.join(input, 'triggers'), { recursive: true });
    for (const { file, code } of ACTIONS) {
      fs.mkdirSync(path.join(input, 'actions', String(file.name)), { recursive: true });
      fs.writeFileSync(path.join(input, 'actions', `${String(file.name)}.json`), JSON.stringify(file, null, 2));
      fs.writeFileSync(path.join(input, 'actions', String(file.name), 'code.js'), code);
    }
    fs.writeFileSync(path.join(input, 'triggers', 'triggers.json'), JSON.stringify(TRIGGERS, null, 2));
    await a0deploy(['import', '-i', 'tenant'], 'Import Successful');

    const listed = (await api<{ actions: { name: string; status: string; all_changes_deployed: boolean; deployed_version?: { number: number }; secrets: { name: string }[] }[]; total: number }>('GET', '/actions/actions?per_page=100')).body;
    assert.equal(listed.total, 3);
    for (const action of listed.actions) {
      assert.equal(action.status, 'built', action.name);
      assert.equal(action.all_changes_deployed, true, action.name);
      assert.equal(action.deployed_version?.number, 1, action.name);
    }
    assert.deepEqual(listed.actions.find((a) => a.name === 'add-roles')?.secrets.map((s) => s.name), ['BLOCKED_COUNTRY']);
    for (const [trigger, bindings] of Object.entries(TRIGGERS)) {
      const bound = (await api<{ bindings: { display_name: string; action: { name: string } }[] }>('GET', `/actions/triggers/${trigger}/bindings`)).body.bindings;
      assert.deepEqual(bound.map((b) => ({ action_name: b.action.name, display_name: b.display_name })), bindings, trigger);
    }

    await a0deploy(['export', '-f', 'directory', '-o', 'first'], 'Export Successful');
    const first = filesOf(path.join(work, 'first'));
    for (const { file, code } of ACTIONS) {
      const name = String(file.name);
      assert.equal(first[`actions/${name}/code.js`], code, `${name}: code`);
      const exported = JSON.parse(first[`actions/${name}.json`]!) as Record<string, unknown>;
      const secrets = (file.secrets as { name: string }[]).map(({ name: n }) => ({ name: n }));
      assert.deepEqual(exported, { ...file, status: 'built', secrets }, `${name}: the same action, secrets by name only`);
    }
    assert.deepEqual(JSON.parse(first['triggers/triggers.json']!), TRIGGERS);
    assert.ok(!Object.values(first).some((content) => content.includes('allowed.example')), 'no secret value exported');

    // The export imported again (secrets by name keep their values) and exported once more: identical.
    await a0deploy(['import', '-i', 'first'], 'Import Successful');
    const after = (await api<{ actions: { name: string; deployed_version?: { number: number } }[] }>('GET', '/actions/actions?per_page=100')).body.actions;
    assert.deepEqual(after.map((a) => a.name).sort(), ['add-roles', 'refuse-domains', 'tenant-claim']);
    await a0deploy(['export', '-f', 'directory', '-o', 'second'], 'Export Successful');
    assert.deepEqual(filesOf(path.join(work, 'second')), first);
  });
});
