/**
 * Attack protection, the email provider, email templates and organization
 * discovery domains driven by the official `auth0` SDK over real HTTPS
 * against the built server running as its own process
 * (test/e2e/clients/auth0-sdk-tenant-settings.ts does the calls).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp, runNode } from './support/https.js';

describe('auth0 SDK: attack protection, emails, email templates, discovery domains', () => {
  let server: ServerProcess;
  let out: Record<string, any>;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    const admin = server.admin();
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-tenant-settings.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    out = JSON.parse(run.stdout) as Record<string, any>;
  });
  after(() => cleanUp([server], [server.dataDir]));

  it('attackProtection: brute-force defaults, update and read back; a bad allowlist refused; the other two stored', () => {
    assert.deepEqual(out.bruteForceDefaults, { enabled: true, shields: ['block', 'user_notification'], allowlist: [], mode: 'count_per_identifier_and_ip', max_attempts: 10 });
    const updated = { enabled: true, shields: ['block', 'user_notification'], allowlist: ['10.0.0.0/8'], mode: 'count_per_identifier', max_attempts: 5 };
    assert.deepEqual(out.bruteForceUpdated, updated);
    assert.deepEqual(out.bruteForceRead, updated);
    assert.equal(out.bruteForceBad.statusCode, 400);
    assert.equal(out.suspiciousIp.enabled, false);
    assert.equal(out.breached.method, 'standard');
  });

  it('emails.provider: 404 before, created and updated, never the password', () => {
    assert.equal(out.providerMissing.statusCode, 404);
    const expected = { name: 'smtp', enabled: false, default_from_address: 'accounts@customer.example', credentials: { smtp_host: 'smtp.customer.example', smtp_port: 587, smtp_user: 'mailer' } };
    assert.deepEqual(out.providerCreated, expected);
    const moved = { ...expected, credentials: { ...expected.credentials, smtp_port: 2525 } };
    assert.deepEqual(out.providerUpdated, moved);
    assert.deepEqual(out.providerRead, moved);
    assert.ok(!JSON.stringify(out).includes('never-shown'));
  });

  it('emailTemplates: create, update, set, get; a second create is 409', () => {
    assert.equal(out.templateCreated.template, 'verify_email');
    assert.equal(out.templateCreated.urlLifetimeInSeconds, 3600);
    assert.equal(out.templateUpdated.subject, 'Please verify');
    assert.equal(out.templateSet.template, 'reset_email');
    assert.deepEqual(out.templateRead, { ...out.templateCreated, subject: 'Please verify' });
    assert.equal(out.templateConflict.statusCode, 409);
  });

  it('organizations.discoveryDomains: create, get by name, update, list through the pages, delete', () => {
    assert.equal(out.domainCreated.domain, 'customer.example');
    assert.equal(out.domainCreated.status, 'verified');
    assert.deepEqual(out.domainByName, out.domainCreated);
    assert.equal(out.domainUpdated.use_for_organization_discovery, false);
    assert.deepEqual(out.domainsListed, ['a.example', 'b.example', 'c.example', 'customer.example']);
    assert.equal(out.domainGone.statusCode, 404);
  });
});
