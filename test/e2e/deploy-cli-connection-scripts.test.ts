/**
 * auth0-deploy-cli (`a0deploy`, the real tool) with connections that carry
 * scripts: a tenant file whose custom database's `customScripts` are script
 * files beside it (as the tool exports them: `./databases/{name}/{script}.js`)
 * and whose `oauth2` connection has a `fetchUserProfile`, imports into a
 * fresh Gatehouse; the export writes the same script files again and the
 * same options, `configuration` as its sealed form only; importing that
 * export keeps the settings it holds (the sealed values sent back are kept).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { A0DEPLOY_BIN, a0deploy as runA0deploy, UNSKIPPABLE } from './support/a0deploy.js';
import { cleanUp, httpsRequest, managementToken } from './support/https.js';

const yaml = createRequire(A0DEPLOY_BIN)('js-yaml') as { load(text: string): unknown; dump(value: unknown): string };

type Connection = { id?: string; name: string; strategy: string; options: Record<string, unknown>; [key: string]: unknown };
type TenantFile = Record<string, unknown> & { databases: Connection[]; connections: Connection[] };

const SECRET = 'legacy-api-key-deploy-77';
const SCRIPTS = {
  login: "function login(email, password, callback) {\n  callback(new WrongUsernameOrPasswordError(email));\n}\n",
  get_user: 'function getByEmail(email, callback) {\n  callback(null);\n}\n',
  change_password: 'function changePassword(email, newPassword, callback) {\n  callback(null, false);\n}\n',
};
const FETCH_PROFILE = "function fetchUserProfile(accessToken, ctx, callback) {\n  callback(null, { user_id: 'x' });\n}";

describe('auth0-deploy-cli: a custom database and an oauth2 connection, scripts and all, into Gatehouse and back out', () => {
  let server: ServerProcess;
  let ca: Buffer;
  let token: string;
  let work: string;

  const a0deploy = (args: string[], success: string) => runA0deploy(server, work, args, success);
  const api = async <T>(url: string): Promise<T> => {
    const res = await httpsRequest(`${server.baseUrl}/api/v2${url}`, { ca, method: 'GET', headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, res.text);
    return res.json<T>();
  };
  const connectionNamed = async (name: string) => (await api<Connection[]>('/connections')).find((c) => c.name === name)!;

  before(async () => {
    server = await startServerProcess({ dataDir: tempDir('gatehouse-e2e-deploy-scripts-'), env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' }, timeoutMs: 120_000 });
    ca = fs.readFileSync(server.certFile);
    token = await managementToken(server);
    work = tempDir('gatehouse-deploy-scripts-');
    const excluded: string[] = [];
    for (const [types, probe] of UNSKIPPABLE) {
      const res = await httpsRequest(`${server.baseUrl}/api/v2${probe}`, { ca, method: 'GET', headers: { authorization: `Bearer ${token}` } });
      if (res.status === 404 && /not_available_in_gatehouse/.test(res.text)) excluded.push(...types);
    }
    const admin = server.admin();
    const common = { AUTH0_DOMAIN: server.domain, AUTH0_CLIENT_ID: admin.client_id, AUTH0_EXCLUDED: excluded };
    fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify({ ...common, AUTH0_CLIENT_SECRET: admin.client_secret }));
    fs.writeFileSync(path.join(work, 'config-token.json'), JSON.stringify({ ...common, AUTH0_ACCESS_TOKEN: token }));

    // The scripts as files beside the tenant file, as the tool writes them.
    fs.mkdirSync(path.join(work, 'databases/legacy-users'), { recursive: true });
    for (const [name, script] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(work, `databases/legacy-users/${name}.js`), script);
    const source = {
      clients: [{ name: 'Portal', app_type: 'regular_web', callbacks: ['https://portal.deploy.example/callback'] }],
      databases: [
        {
          name: 'legacy-users',
          strategy: 'auth0',
          enabled_clients: ['Portal'],
          options: {
            enabledDatabaseCustomization: true,
            import_mode: true,
            customScripts: Object.fromEntries(Object.keys(SCRIPTS).map((name) => [name, `./databases/legacy-users/${name}.js`])),
            configuration: { API_KEY: SECRET },
          },
        },
      ],
      connections: [
        {
          name: 'acme-oauth',
          strategy: 'oauth2',
          enabled_clients: ['Portal'],
          options: { authorizationURL: 'https://oauth.acme.example/authorize', tokenURL: 'https://oauth.acme.example/token', client_id: 'acme', client_secret: 'acme-secret', scope: 'profile', scripts: { fetchUserProfile: FETCH_PROFILE } },
        },
      ],
    };
    fs.writeFileSync(path.join(work, 'source.yaml'), yaml.dump(source));
  });
  after(async () => {
    await cleanUp(server ? [server] : [], server ? [server.dataDir, work] : []);
  });

  it('imports the scripts from their files; configuration only sealed', async () => {
    await a0deploy(['import', '-i', 'source.yaml'], 'Import Successful');
    const database = await connectionNamed('legacy-users');
    assert.deepEqual(database.options.customScripts, SCRIPTS);
    assert.equal(database.options.import_mode, true);
    const configuration = database.options.configuration as Record<string, string>;
    assert.deepEqual(Object.keys(configuration), ['API_KEY']);
    assert.match(configuration.API_KEY!, /^v1\./);
    assert.doesNotMatch(JSON.stringify(database), new RegExp(SECRET));
    const oauth = await connectionNamed('acme-oauth');
    assert.equal((oauth.options.scripts as { fetchUserProfile: string }).fetchUserProfile, FETCH_PROFILE);
  });

  it('exports the scripts as files again, and importing the export keeps everything, the sealed settings included', async () => {
    const before = [await connectionNamed('legacy-users'), await connectionNamed('acme-oauth')];
    await a0deploy(['export', '-f', 'yaml', '-o', 'out'], 'Export Successful');
    const exported = yaml.load(fs.readFileSync(path.join(work, 'out/tenant.yaml'), 'utf8')) as TenantFile;
    const database = exported.databases.find((d) => d.name === 'legacy-users')!;
    assert.deepEqual(database.options.customScripts, Object.fromEntries(Object.keys(SCRIPTS).sort().map((name) => [name, `./databases/legacy-users/${name}.js`])));
    for (const [name, script] of Object.entries(SCRIPTS)) assert.equal(fs.readFileSync(path.join(work, `out/databases/legacy-users/${name}.js`), 'utf8'), script, name);
    assert.doesNotMatch(fs.readFileSync(path.join(work, 'out/tenant.yaml'), 'utf8'), new RegExp(SECRET));

    await a0deploy(['import', '-i', 'out/tenant.yaml'], 'Import Successful');
    const after = [await connectionNamed('legacy-users'), await connectionNamed('acme-oauth')];
    assert.deepEqual(after.map((c) => c.options), before.map((c) => c.options));
  });
});
