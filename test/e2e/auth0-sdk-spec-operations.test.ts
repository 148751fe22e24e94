/**
 * The specification's four Management API operations and the resources they
 * stand on, driven by the official `auth0` SDK over real HTTPS against the
 * built server running as its own process.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServerProcess, ROOT, type ServerProcess } from '../helpers/server-process.js';
import fs from 'node:fs';
import { cleanUp, httpsRequest, runNode, tokenBody } from './support/https.js';

describe('auth0 SDK: clients, groups, push-notification providers', () => {
  let server: ServerProcess;
  let out: Record<string, any>;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    const admin = server.admin();
    const issued = await httpsRequest(`${server.baseUrl}/oauth/token`, {
      ca: fs.readFileSync(server.certFile),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: tokenBody(admin.client_id, admin.client_secret, `https://${server.domain}/api/v2/`, { scope: 'read:client_summary' }),
    });
    assert.equal(issued.status, 200, issued.text);
    const summaryToken = issued.json<{ access_token: string }>().access_token;
    const run = await runNode(
      ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-spec-operations.ts'),
        JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, summaryToken })],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
    out = JSON.parse(run.stdout) as Record<string, any>;
  });
  after(() => cleanUp([server], [server.dataDir]));

  it('clients.list() pages through all 120 clients (and the tenant’s own two)', () => {
    const created = (out.created as { client_id: string }[]).map((c) => c.client_id);
    assert.equal(created.length, 120);
    const listed = out.listAll as string[];
    assert.equal(new Set(listed).size, listed.length, 'no client listed twice');
    for (const id of created) assert.ok(listed.includes(id), `${id} listed`);
    assert.equal(listed.length, 122);
  });

  it('filters by app_type, is_first_party and is_global', () => {
    const created = out.created as { client_id: string; app_type: string; is_first_party: boolean }[];
    const byType = out.filterAppType as [string, string][];
    assert.ok(byType.every(([, type]) => type === 'spa' || type === 'native'));
    assert.equal(byType.length, created.filter((c) => c.app_type === 'spa' || c.app_type === 'native').length);
    const firstParty = out.filterFirstParty as [string, boolean][];
    assert.ok(firstParty.every(([, fp]) => fp === true));
    for (const c of created.filter((c) => c.is_first_party)) assert.ok(firstParty.some(([id]) => id === c.client_id));
    assert.deepEqual(out.filterGlobal, [['All Applications', true]]);
  });

  it('selects fields both ways', () => {
    for (const keys of out.fieldsInclude as string[][]) assert.deepEqual(keys, ['client_id', 'name']);
    for (const present of out.fieldsExclude as string[][]) assert.deepEqual(present, ['name']);
  });

  it('checkpoint pages visit each surviving client exactly once while clients come and go', () => {
    const { seen, deleted } = out.checkpoint as { seen: string[]; deleted: string[]; inserted: string[] };
    assert.equal(new Set(seen).size, seen.length, 'no client repeated');
    for (const c of out.created as { client_id: string }[]) {
      if (deleted.includes(c.client_id)) assert.ok(!seen.includes(c.client_id));
      else assert.ok(seen.includes(c.client_id), `${c.client_id} skipped`);
    }
    assert.equal(out.lastPageHasNextKey, false, 'next is absent on the last page');
  });

  it('q finds the client whose grant is linked to the organization', () => {
    assert.deepEqual(out.qOrganization.got, [out.qOrganization.expected]);
  });

  it('a read:client_summary token sees only the four summary fields', () => {
    assert.deepEqual(out.summaryKeys, ['app_type', 'client_id', 'description', 'name']);
  });

  it('groups.roles.delete removes the role', () => {
    const { roleA, roleB, before: beforeRoles, after: afterRoles } = out.groupRoles;
    assert.deepEqual([...beforeRoles].sort(), [roleA, roleB].sort());
    assert.deepEqual(afterRoles, [roleB]);
  });

  it('APNs and SNS providers round-trip; the p12 and the AWS secret never come back', () => {
    assert.deepEqual(out.apnsPatch, { sandbox: true, bundle_id: 'com.example.e2e' });
    assert.equal(out.apnsGet.bundle_id, 'com.example.e2e');
    assert.equal(out.apnsGet.sandbox, true);
    assert.equal(out.snsGet.aws_access_key_id, 'AKIAE2E');
    assert.equal(out.snsGet.aws_region, 'eu-west-1');
    assert.ok(!('aws_secret_access_key' in out.snsGet));
    const everything = JSON.stringify([out.apnsPatch, out.apnsGet, out.snsGet]);
    assert.ok(!everything.includes(out.p12 as string));
    assert.ok(!everything.includes('e2e-secret-access-key'));
  });
});
