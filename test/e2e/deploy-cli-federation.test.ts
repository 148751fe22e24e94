/**
 * auth0-deploy-cli (`a0deploy`, the real tool) moving a tenant's federated
 * connections into a fresh Gatehouse and back out: a tenant file as the tool
 * exports one from the service, with a `google-oauth2`, a `github` and an
 * `oidc` connection enabled for an application, imports; the export of the
 * Gatehouse tenant gives the same connections again (the secrets aside, and
 * the members the service computes: an oidc connection's `oidc_metadata`
 * read from its discovery document); importing that export changes nothing.
 *
 * The oidc connection's provider is a local stand-in (its discovery document
 * read at create), trusted through NODE_EXTRA_CA_CERTS and reached on
 * loopback through GATEHOUSE_OUTBOUND_ALLOW.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { tempDir } from '../helpers/app.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startSocialStandIns, type SocialStandIns } from '../helpers/social-stand-ins.js';
import { A0DEPLOY_BIN, a0deploy as runA0deploy, UNSKIPPABLE } from './support/a0deploy.js';
import { cleanUp, httpsRequest, managementToken } from './support/https.js';

const yaml = createRequire(A0DEPLOY_BIN)('js-yaml') as { load(text: string): unknown; dump(value: unknown): string };


type Connection = { name: string; strategy: string; enabled_clients?: string[]; options: Record<string, unknown>; [key: string]: unknown };
type TenantFile = Record<string, unknown> & { connections: Connection[]; clients: { name: string }[] };

/** What must come back unchanged: the connection without its secrets and without what the service computes. */
function comparable(connection: Connection): Connection {
  const { client_secret: _secret, oidc_metadata: _metadata, schema_version: _version, attribute_map: _map, ...options } = connection.options;
  return { ...connection, enabled_clients: [...(connection.enabled_clients ?? [])].sort(), options };
}

describe('auth0-deploy-cli: google-oauth2, github and oidc connections into a fresh Gatehouse and back out', () => {
  let server: ServerProcess;
  let ca: Buffer;
  let token: string;
  let work: string;
  let standIns: SocialStandIns;
  let source: TenantFile;

  const a0deploy = (args: string[], success: string) => runA0deploy(server, work, args, success);

  const api = async <T>(url: string): Promise<T> => {
    const res = await httpsRequest(`${server.baseUrl}/api/v2${url}`, { ca, method: 'GET', headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, res.text);
    return res.json<T>();
  };

  before(async () => {
    const dataDir = tempDir('gatehouse-e2e-deploy-federation-');
    const material = await createTlsCertificate(['localhost', '127.0.0.1', '::1']);
    const certFile = path.join(dataDir, 'upstream-cert.pem');
    fs.writeFileSync(certFile, material.certPem);
    standIns = await startSocialStandIns({ cert: Buffer.from(material.certPem), key: Buffer.from(material.keyPem) });
    server = await startServerProcess({
      dataDir,
      env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES, GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' },
      timeoutMs: 120_000,
    });
    ca = fs.readFileSync(server.certFile);
    token = await managementToken(server);
    work = tempDir('gatehouse-deploy-federation-');
    const excluded: string[] = [];
    for (const [types, probe] of UNSKIPPABLE) {
      const res = await httpsRequest(`${server.baseUrl}/api/v2${probe}`, { ca, method: 'GET', headers: { authorization: `Bearer ${token}` } });
      if (res.status === 404 && /not_available_in_gatehouse/.test(res.text)) excluded.push(...types);
    }
    const admin = server.admin();
    const common = { AUTH0_DOMAIN: server.domain, AUTH0_CLIENT_ID: admin.client_id, AUTH0_EXCLUDED: excluded };
    fs.writeFileSync(path.join(work, 'config.json'), JSON.stringify({ ...common, AUTH0_CLIENT_SECRET: admin.client_secret }));
    fs.writeFileSync(path.join(work, 'config-token.json'), JSON.stringify({ ...common, AUTH0_ACCESS_TOKEN: token }));

    // The tenant as the tool exports it from the service (federation wire notes §1: the options as stored, the computed scope included).
    source = {
      clients: [{ name: 'Portal', app_type: 'regular_web', callbacks: ['https://portal.deploy.example/callback'] } as { name: string }],
      connections: [
        {
          name: 'google-oauth2',
          strategy: 'google-oauth2',
          enabled_clients: ['Portal'],
          is_domain_connection: false,
          options: { client_id: 'google-client', client_secret: 'google-secret', email: true, profile: true, gmail: true, scope: ['email', 'profile', 'https://mail.google.com/mail/feed/atom'], upstream_params: { screen_name: { alias: 'login_hint' } } },
        },
        {
          name: 'github',
          strategy: 'github',
          enabled_clients: ['Portal'],
          is_domain_connection: false,
          options: { client_id: 'github-client', client_secret: 'github-secret', email: true, profile: true, read_user: true, scope: ['user:email', 'read:user'], set_user_root_attributes: 'on_first_login' },
        },
        {
          name: 'acme-sso',
          display_name: 'Acme Corp',
          strategy: 'oidc',
          enabled_clients: ['Portal'],
          is_domain_connection: false,
          show_as_button: true,
          options: {
            client_id: 'acme-client',
            client_secret: 'acme-secret',
            type: 'back_channel',
            discovery_url: `${standIns.endpoints['google-oauth2']!.issuer}/.well-known/openid-configuration`,
            scope: 'openid email profile',
            domain_aliases: ['acme.example'],
          },
        },
      ],
    };
    fs.writeFileSync(path.join(work, 'source.yaml'), yaml.dump(source));
  });
  after(async () => {
    await standIns?.close();
    await cleanUp(server ? [server] : [], server ? [server.dataDir, work] : []);
  });

  it('imports: the three connections, their options, enabled for the application; the oidc one\'s discovery read', async () => {
    await a0deploy(['import', '-i', 'source.yaml'], 'Import Successful');
    const connections = await api<(Connection & { id: string })[]>('/connections');
    const portal = (await api<{ name: string; client_id: string }[]>('/clients?fields=name,client_id')).find((c) => c.name === 'Portal')!;
    for (const expected of source.connections) {
      const found = connections.find((c) => c.name === expected.name);
      assert.ok(found, expected.name);
      assert.equal(found.strategy, expected.strategy);
      assert.deepEqual(found.options.client_secret, expected.options.client_secret, 'the secret as imported');
      const clients = await api<{ clients: { client_id: string }[] }>(`/connections/${found.id}/clients`);
      assert.deepEqual(clients.clients.map((c) => c.client_id), [portal.client_id]);
    }
    const acme = connections.find((c) => c.name === 'acme-sso')!;
    assert.equal((acme.options.oidc_metadata as { issuer: string }).issuer, standIns.endpoints['google-oauth2']!.issuer);
    assert.equal(acme.show_as_button, true);
    assert.equal(acme.display_name, 'Acme Corp');
  });

  it('exports the same connections (secrets and computed members aside), and importing the export changes nothing', async () => {
    await a0deploy(['export', '-f', 'yaml', '-o', 'out'], 'Export Successful');
    const exported = yaml.load(fs.readFileSync(path.join(work, 'out/tenant.yaml'), 'utf8')) as TenantFile;
    const byName = new Map(exported.connections.map((c) => [c.name, c]));
    for (const expected of source.connections) {
      const found = byName.get(expected.name);
      assert.ok(found, `${expected.name} exported`);
      assert.deepEqual(comparable(found), comparable(expected), expected.name);
    }
    const before = await api<Connection[]>('/connections');
    await a0deploy(['import', '-i', 'out/tenant.yaml'], 'Import Successful');
    const afterImport = await api<Connection[]>('/connections');
    assert.deepEqual(afterImport.map(comparable), before.map(comparable));
  });
});
