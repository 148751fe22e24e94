/**
 * /api/v2/guardian/factors/duo/settings on the real app and database: PUT
 * replaces, PATCH merges, GET reads; the secret key is sealed at rest with
 * the secret box (bound to the tenant) and no answer carries it. Refusals:
 * 400 a missing or malformed host (and nothing written), 400 unknown
 * members, 403 without the scope. A rekey re-seals the secret key.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { duoSecretKeyContext } from '../../src/domain/guardian/duo.js';
import { sealedValueCensus } from '../../src/domain/encryption/rekey.js';
import { JobRunner } from '../../src/domain/jobs/runner.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';

const URL = '/api/v2/guardian/factors/duo/settings';
const SKEY = 'eGvC9Wq0Ys7oP2mXb4aQ1sT8uL6kJ3hF5dN0rZ2y';
const IKEY = 'DIWJ8X6AEYOR5OMC6TQ1';
const HOST = 'api-a1b2c3d4.duosecurity.com';

describe('/api/v2/guardian/factors/duo/settings', () => {
  let t: TestApp;
  let token: string;
  const call = (method: string, body?: unknown, options: { token?: string; headers?: Record<string, string> } = {}) =>
    t.management(method, URL, { token: options.token ?? token, ...(body !== undefined && { body }), ...(options.headers && { headers: options.headers }) });
  const storedRow = () => t.ctx.database.db.selectFrom('guardian_duo').selectAll().where('tenant_id', '=', t.tenant.id).executeTakeFirst();

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
  });
  beforeEach(() => t.ctx.database.db.deleteFrom('guardian_duo').execute());
  after(() => t.close());

  it('GET answers {} before anything is set', async () => {
    const res = await call('GET');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {});
  });

  it('PUT stores the settings, the secret key sealed; no answer carries it', async () => {
    const put = await call('PUT', { ikey: IKEY, skey: SKEY, host: HOST });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json(), { ikey: IKEY, host: HOST });
    assert.ok(!put.body.includes(SKEY));

    const got = await call('GET');
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), { ikey: IKEY, host: HOST });
    assert.ok(!got.body.includes(SKEY));

    const row = await storedRow();
    assert.ok(row?.skey_enc);
    assert.ok(!row.skey_enc.includes(SKEY));
    assert.equal(t.ctx.box.openString(row.skey_enc, duoSecretKeyContext(t.tenant.id)), SKEY);
    // Bound to the tenant: another tenant's context does not open it.
    assert.throws(() => t.ctx.box.openString(row.skey_enc!, duoSecretKeyContext('another-tenant')));
  });

  it('PUT replaces: a member left out is cleared; PATCH merges and keeps the secret key', async () => {
    assert.equal((await call('PUT', { ikey: IKEY, skey: SKEY, host: HOST })).statusCode, 200);
    const patched = await call('PATCH', { host: 'API-Ffff0000.duosecurity.com' });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(patched.json(), { ikey: IKEY, host: 'api-ffff0000.duosecurity.com' });
    const row = await storedRow();
    assert.equal(t.ctx.box.openString(row!.skey_enc!, duoSecretKeyContext(t.tenant.id)), SKEY);

    const rotated = await call('PATCH', { skey: 'another-secret-key' });
    assert.deepEqual(rotated.json(), { ikey: IKEY, host: 'api-ffff0000.duosecurity.com' });
    assert.equal(t.ctx.box.openString((await storedRow())!.skey_enc!, duoSecretKeyContext(t.tenant.id)), 'another-secret-key');

    const replaced = await call('PUT', { host: HOST });
    assert.deepEqual(replaced.json(), { host: HOST });
    assert.deepEqual(await storedRow().then((r) => ({ ikey: r!.ikey, skey_enc: r!.skey_enc })), { ikey: null, skey_enc: null });
    assert.deepEqual((await call('GET')).json(), { host: HOST });
  });

  it('the auth0 SDK’s guardian.factors.duo.settings calls: set, update, get; never the secret key', async () => {
    const sdk = await inProcessSdk(t, token);
    assert.deepEqual(await sdk.guardian.factors.duo.settings.set({ ikey: IKEY, skey: SKEY, host: HOST }), { ikey: IKEY, host: HOST });
    assert.deepEqual(await sdk.guardian.factors.duo.settings.update({ ikey: 'OTHERIKEY' }), { ikey: 'OTHERIKEY', host: HOST });
    const got = await sdk.guardian.factors.duo.settings.get();
    assert.equal(got.skey, undefined);
    assert.deepEqual(got, { ikey: 'OTHERIKEY', host: HOST });
    await assert.rejects(sdk.guardian.factors.duo.settings.set({ ikey: IKEY, skey: SKEY }), (error: { statusCode?: number }) => error.statusCode === 400);
  });

  it('takes form bodies as the document allows', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: URL,
      headers: { host: DOMAIN, authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ikey: IKEY, skey: SKEY, host: HOST }).toString(),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { ikey: IKEY, host: HOST });
  });

  it('400 for a missing host, and nothing written', async () => {
    for (const [method, body] of [['PUT', { ikey: IKEY, skey: SKEY }], ['PATCH', { ikey: IKEY }], ['PUT', {}]] as const) {
      const res = await call(method, body);
      assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(body)} → ${res.body}`);
      assert.deepEqual(res.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: "Payload validation error: 'Missing required property: host' on property host.",
        errorCode: 'invalid_body',
      });
    }
    assert.equal(await storedRow(), undefined);
  });

  it('400 for a host that is not a host name, and nothing changed', async () => {
    assert.equal((await call('PUT', { ikey: IKEY, skey: SKEY, host: HOST })).statusCode, 200);
    for (const host of ['https://api-a1b2c3d4.duosecurity.com', 'api-a1b2c3d4.duosecurity.com/path', 'api-a1b2c3d4.duosecurity.com:443', 'localhost', '', 'bad host.example', '-api.duosecurity.com']) {
      for (const method of ['PUT', 'PATCH']) {
        const res = await call(method, { ikey: 'OTHER', skey: 'other', host });
        assert.equal(res.statusCode, 400, `${method} ${host} → ${res.body}`);
        assert.match((res.json() as { message: string }).message, /on property host/);
      }
    }
    const row = await storedRow();
    assert.equal(row?.ikey, IKEY);
    assert.equal(row?.host, HOST);
    assert.equal(t.ctx.box.openString(row!.skey_enc!, duoSecretKeyContext(t.tenant.id)), SKEY);
  });

  it('400 for unknown members, an empty secret key or a non-string', async () => {
    for (const body of [{ host: HOST, akey: 'x' }, { host: HOST, skey: '' }, { host: 42 }, { host: HOST, ikey: 'a\u0000b' }]) {
      const res = await call('PUT', body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
    }
    assert.equal(await storedRow(), undefined);
  });

  it('403 without the scope, and nothing written', async () => {
    const readOnly = await t.managementToken('read:guardian_factors');
    for (const method of ['PUT', 'PATCH']) {
      const res = await call(method, { ikey: IKEY, skey: SKEY, host: HOST }, { token: readOnly });
      assert.equal(res.statusCode, 403, res.body);
      assert.equal((res.json() as { message: string }).message, 'Insufficient scope, expected any of: update:guardian_factors');
    }
    assert.equal(await storedRow(), undefined);
    assert.equal((await call('GET', undefined, { token: readOnly })).statusCode, 200);
    const writeOnly = await t.managementToken('update:guardian_factors');
    const read = await call('GET', undefined, { token: writeOnly });
    assert.equal(read.statusCode, 403);
    assert.equal((read.json() as { message: string }).message, 'Insufficient scope, expected any of: read:guardian_factors');
  });

  it('the duo factor is enabled through PUT /guardian/factors/duo; its logins: test/authentication/mfa-duo.test.ts', async () => {
    assert.equal((await call('PUT', { ikey: IKEY, skey: SKEY, host: HOST })).statusCode, 200);
    const res = await t.management('PUT', '/api/v2/guardian/factors/duo', { token, body: { enabled: true } });
    assert.equal(res.statusCode, 200, res.body);
    const factors = (await t.management('GET', '/api/v2/guardian/factors', { token })).json() as { name: string; enabled: boolean }[];
    assert.equal(factors.find((f) => f.name === 'duo')?.enabled, true);
    assert.equal((await t.management('PUT', '/api/v2/guardian/factors/duo', { token, body: { enabled: false } })).statusCode, 200);
  });
});

describe('/api/v2/guardian/factors/duo/settings on PostgreSQL', () => {
  it('PUT then PATCH keep one row, the secret key sealed', async () => {
    const t = await createTestApp({ postgres: true });
    try {
      const token = await t.managementToken();
      assert.equal((await t.management('PUT', URL, { token, body: { ikey: IKEY, skey: SKEY, host: HOST } })).statusCode, 200);
      const patched = await t.management('PATCH', URL, { token, body: { ikey: 'NEWIKEY' } });
      assert.deepEqual(patched.json(), { ikey: 'NEWIKEY', host: HOST });
      const rows = await t.ctx.database.db.selectFrom('guardian_duo').selectAll().where('tenant_id', '=', t.tenant.id).execute();
      assert.equal(rows.length, 1);
      assert.equal(t.ctx.box.openString(rows[0]!.skey_enc!, duoSecretKeyContext(t.tenant.id)), SKEY);
    } finally {
      await t.close();
    }
  });
});

describe('the Duo secret key and a rekey', () => {
  it('is re-sealed under the tenant’s new key and still opens', async () => {
    const t = await createTestApp({ env: { GATEHOUSE_ENCRYPTION_KEYS_REFRESH: '0.01', GATEHOUSE_REKEY_PAUSE: '0.02' } });
    try {
      const token = await t.managementToken();
      assert.equal((await t.management('PUT', URL, { token, body: { ikey: IKEY, skey: SKEY, host: HOST } })).statusCode, 200);
      const before = (await t.ctx.database.db.selectFrom('guardian_duo').select('skey_enc').where('tenant_id', '=', t.tenant.id).executeTakeFirstOrThrow()).skey_enc!;
      assert.equal((await t.management('POST', '/api/v2/keys/encryption/rekey', { token })).statusCode, 204);
      assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
      const after = (await t.ctx.database.db.selectFrom('guardian_duo').select('skey_enc').where('tenant_id', '=', t.tenant.id).executeTakeFirstOrThrow()).skey_enc!;
      assert.notEqual(after, before, 'moved to the new key');
      assert.match(after, /^v2\./);
      assert.equal(t.ctx.box.openString(after, duoSecretKeyContext(t.tenant.id)), SKEY);
      assert.equal((await sealedValueCensus(t.ctx, t.tenant.id)).unreadable, 0);
    } finally {
      await t.close();
    }
  });
});
