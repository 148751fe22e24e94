/**
 * /api/v2/keys/encryption on the real app and database (SQLite and
 * PostgreSQL): the key list, a rekey run by the job runner that moves every
 * sealed value of the tenant (client secrets, API signing secrets, action
 * secrets, log stream authorization, SNS and SMTP credentials, upstream
 * tokens, signing keys) under the new encryption key and destroys the old
 * one, values written by the previous version (`v1`) read before and after,
 * another process opening the moved values, a customer-provided root key
 * imported with CKM_RSA_AES_KEY_WRAP and removed again, and every refusal.
 */
import assert from 'node:assert/strict';
import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createContext, createLogger } from '../../src/app/context.js';
import { sealedValueCensus } from '../../src/domain/encryption/rekey.js';
import { activeCaptcha } from '../../src/domain/attack-protection/captcha.js';
import { JobRunner } from '../../src/domain/jobs/runner.js';
import { keepUpstreamTokens, openUpstreamTokens } from '../../src/domain/upstream-tokens/vault.js';
import { openActionSecrets } from '../../src/domain/actions/secrets.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { postgresAvailable } from '../helpers/postgres.js';

interface Key {
  kid: string;
  type: string;
  state: string;
  parent_kid: string | null;
  public_key: string | null;
  created_at: string;
  updated_at: string;
}

const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

/** CKM_RSA_AES_KEY_WRAP as a key owner's tooling does it: an ephemeral AES key under RSA-OAEP (SHA-256), then the key under it (RFC 5649). */
function wrapForImport(publicPem: string, key: Buffer): string {
  const ephemeral = randomBytes(32);
  const head = publicEncrypt({ key: createPublicKey(publicPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ephemeral);
  const cipher = createCipheriv('id-aes256-wrap-pad', ephemeral, Buffer.from('A65959A6', 'hex'));
  return Buffer.concat([head, cipher.update(key), cipher.final()]).toString('base64');
}

for (const postgres of [false, true]) describe(`/api/v2/keys/encryption (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && skipPostgres }, () => {
  let t: TestApp;
  const secrets: { clientId?: string; clientSecret?: string; apiId?: string; apiSecret?: string; actionId?: string; userId?: string } = {};

  const api = (method: string, url: string, body?: unknown, token?: string) => t.management(method, `/api/v2${url}`, { ...(body !== undefined && { body }), ...(token && { token }) });
  const keys = async () => {
    const res = await api('GET', '/keys/encryption');
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as Key[];
  };
  const census = () => sealedValueCensus(t.ctx, t.tenant.id);
  const runJobs = () => new JobRunner(t.ctx).runOnce();

  before(async () => {
    t = await createTestApp({ postgres, env: { GATEHOUSE_ENCRYPTION_KEYS_REFRESH: '0.05', GATEHOUSE_REKEY_BATCH: '2' } });
    const client = (await api('POST', '/clients', { name: 'sealed', app_type: 'non_interactive' })).json() as { client_id: string; client_secret: string };
    secrets.clientId = client.client_id;
    secrets.clientSecret = client.client_secret;
    for (let i = 0; i < 4; i++) assert.equal((await api('POST', '/clients', { name: `filler ${i}` })).statusCode, 201);
    const rs = await api('POST', '/resource-servers', { identifier: 'https://hs.example/', signing_alg: 'HS256' });
    assert.equal(rs.statusCode, 201, rs.body);
    secrets.apiId = rs.json().id;
    secrets.apiSecret = rs.json().signing_secret;
    const action = await api('POST', '/actions/actions', { name: 'sealed', supported_triggers: [{ id: 'post-login', version: 'v3' }], code: 'exports.onExecutePostLogin = async () => {};', secrets: [{ name: 'KEY', value: 'action-secret-value' }] });
    assert.equal(action.statusCode, 201, action.body);
    secrets.actionId = action.json().id;
    const stream = await api('POST', '/log-streams', { name: 'SIEM', type: 'http', sink: { httpEndpoint: 'https://siem.example.com/in', httpContentFormat: 'JSONARRAY', httpAuthorization: 'Bearer stream-secret' } });
    assert.equal(stream.statusCode, 200, stream.body);
    const sns = await api('PUT', '/guardian/factors/push-notification/providers/sns', { aws_access_key_id: 'AKIAEXAMPLEKEYID0001', aws_secret_access_key: 'aws-secret', aws_region: 'us-west-1' });
    assert.equal(sns.statusCode, 200, sns.body);
    const smtp = await api('POST', '/emails/provider', { name: 'smtp', enabled: false, credentials: { smtp_host: '127.0.0.1', smtp_port: 2525, smtp_user: 'mailer', smtp_pass: 'smtp-secret' } });
    assert.equal(smtp.statusCode, 201, smtp.body);
    const captcha = await api('PATCH', '/attack-protection/captcha', { active_provider_id: 'hcaptcha', hcaptcha: { site_key: 'hcaptcha-site', secret: 'hcaptcha-secret' } });
    assert.equal(captcha.statusCode, 200, captcha.body);
    const connection = await api('POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0' });
    const user = await api('POST', '/users', { connection: 'Username-Password-Authentication', email: 'sealed@example.com', password: 'correct horse battery staple' });
    assert.equal(user.statusCode, 201, user.body);
    secrets.userId = user.json().user_id;
    await keepUpstreamTokens(t.ctx, t.tenant.id, secrets.userId!, { id: connection.json().id, name: 'Username-Password-Authentication' }, { access_token: 'upstream-access', refresh_token: 'upstream-refresh' });
  });
  after(() => t?.close());

  /** Every secret read back through its owner's own code path. */
  async function assertReadable() {
    const client = await api('GET', `/clients/${secrets.clientId}`);
    assert.equal(client.json().client_secret, secrets.clientSecret);
    assert.equal((await api('GET', `/resource-servers/${secrets.apiId}`)).json().signing_secret, secrets.apiSecret);
    assert.equal((await api('GET', '/guardian/factors/push-notification/providers/sns')).json().aws_access_key_id, 'AKIAEXAMPLEKEYID0001');
    const action = await t.ctx.stores.actions.get(t.tenant.id, secrets.actionId!);
    assert.deepEqual(openActionSecrets(t.ctx.box, t.tenant.id, secrets.actionId!, action!.secrets), { KEY: 'action-secret-value' });
    const [tokens] = await t.ctx.stores.upstreamTokenSets.list(t.tenant.id, secrets.userId!);
    assert.deepEqual(openUpstreamTokens(t.ctx.box, tokens!), { access_token: 'upstream-access', refresh_token: 'upstream-refresh' });
    assert.equal((await activeCaptcha(t.ctx, t.tenant.id))?.secret, 'hcaptcha-secret');
    // The signing key's private half: a token is issued with it.
    assert.ok(await t.managementToken());
  }

  it('lists the environment root key alone before the first rekey; every value is v1 and readable', async () => {
    const list = await keys();
    assert.equal(list.length, 1);
    assert.deepEqual({ ...list[0], created_at: undefined, updated_at: undefined }, { kid: t.ctx.box.rootKid, type: 'environment-root-key', state: 'active', parent_kid: null, public_key: null, created_at: undefined, updated_at: undefined });
    const before = await census();
    assert.equal(before.unreadable, 0);
    assert.deepEqual(Object.keys(before.byKid), [t.ctx.box.rootKid]);
    assert.ok(before.byKid[t.ctx.box.rootKid]! >= 12, JSON.stringify(before));
    await assertReadable();
    const paged = (await api('GET', '/keys/encryption?include_totals=true&per_page=1&page=0')).json() as { keys: Key[]; start: number; limit: number; total: number };
    assert.deepEqual({ ...paged, keys: paged.keys.length }, { keys: 1, start: 0, limit: 1, total: 1 });
  });

  it('rekey: new keys, the job moves every value, the old key is destroyed; a second rekey retires the first', async () => {
    const started = await api('POST', '/keys/encryption/rekey');
    assert.equal(started.statusCode, 204, started.body);
    const pending = await keys();
    const master = pending.find((k) => k.type === 'tenant-master-key')!;
    const encryption = pending.find((k) => k.type === 'tenant-encryption-key')!;
    assert.equal(master.state, 'pre-activation');
    assert.equal(master.parent_kid, t.ctx.box.rootKid);
    assert.equal(encryption.parent_kid, master.kid);
    // One rekey at a time.
    const again = await api('POST', '/keys/encryption/rekey');
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().errorCode, 'conflict');
    // Nothing is sealed under the new key before it is active.
    assert.deepEqual(Object.keys((await census()).byKid), [t.ctx.box.rootKid]);

    assert.equal(await runJobs(), 1);
    const done = await keys();
    const states = Object.fromEntries(done.filter((k) => k.type !== 'environment-root-key').map((k) => [k.kid, k.state]));
    assert.deepEqual(states, { [master.kid]: 'active', [encryption.kid]: 'active' });
    const moved = await census();
    assert.deepEqual(moved, { byKid: { [encryption.kid]: moved.byKid[encryption.kid]! }, unreadable: 0 });
    await assertReadable();
    // New values are sealed under the new key (v2, naming it).
    const fresh = (await api('POST', '/clients', { name: 'after rekey' })).json() as { client_id: string };
    const row = await t.ctx.stores.clients.get(t.tenant.id, fresh.client_id);
    assert.ok(row!.client_secret_enc!.startsWith(`v2.${encryption.kid}.`), row!.client_secret_enc!);

    // Another process loads the hierarchy from the database and opens the moved values.
    const other = await createContext(t.config, createLogger(t.config));
    try {
      assert.deepEqual(await sealedValueCensus(other, t.tenant.id), await census());
    } finally {
      await other.close();
    }

    assert.equal((await api('POST', '/keys/encryption/rekey')).statusCode, 204);
    assert.equal(await runJobs(), 1);
    const second = await keys();
    assert.deepEqual(second.filter((k) => k.kid === master.kid || k.kid === encryption.kid).map((k) => k.state), ['destroyed', 'destroyed']);
    const active = second.find((k) => k.type === 'tenant-encryption-key' && k.state === 'active')!;
    const after = await census();
    assert.deepEqual(Object.keys(after.byKid), [active.kid]);
    assert.equal(after.unreadable, 0);
    await assertReadable();
    // A destroyed key's record may go; the active one may not.
    assert.equal((await api('DELETE', `/keys/encryption/${encryption.kid}`)).statusCode, 204);
    assert.equal((await api('GET', `/keys/encryption/${encryption.kid}`)).statusCode, 404);
    const inUse = await api('DELETE', `/keys/encryption/${active.kid}`);
    assert.equal(inUse.statusCode, 400);
    assert.match(inUse.json().message, /is in use/);
  });

  it('a customer-provided root key: created, wrapping key, import (the master key is re-wrapped), then removed', async () => {
    const created = await api('POST', '/keys/encryption', { type: 'customer-provided-root-key' });
    assert.equal(created.statusCode, 201, created.body);
    const root = created.json() as Key;
    assert.equal(root.state, 'pre-activation');
    assert.equal((await api('POST', '/keys/encryption', { type: 'customer-provided-root-key' })).statusCode, 409);
    // Import before a wrapping key exists.
    const early = await api('POST', `/keys/encryption/${root.kid}`, { wrapped_key: 'AAAA' });
    assert.equal(early.statusCode, 409);
    const wrapping = await api('POST', `/keys/encryption/${root.kid}/wrapping-key`);
    assert.equal(wrapping.statusCode, 201, wrapping.body);
    const { public_key: publicKey, algorithm } = wrapping.json() as { public_key: string; algorithm: string };
    assert.equal(algorithm, 'CKM_RSA_AES_KEY_WRAP');
    assert.match(publicKey, /^-----BEGIN PUBLIC KEY-----/);
    // Material wrapped for another key, and a key that is not 256 bits, are refused.
    const stranger = wrapForImport(createPublicKey(publicKey).export({ type: 'spki', format: 'pem' }) as string, randomBytes(16));
    assert.equal((await api('POST', `/keys/encryption/${root.kid}`, { wrapped_key: stranger })).statusCode, 400);
    assert.equal((await api('POST', `/keys/encryption/${root.kid}`, { wrapped_key: randomBytes(600).toString('base64') })).statusCode, 400);

    const imported = await api('POST', `/keys/encryption/${root.kid}`, { wrapped_key: wrapForImport(publicKey, randomBytes(32)) });
    assert.equal(imported.statusCode, 201, imported.body);
    assert.equal(imported.json().state, 'active');
    const list = await keys();
    assert.equal(list.find((k) => k.type === 'environment-root-key')!.state, 'deactivated');
    assert.equal(list.find((k) => k.type === 'tenant-master-key' && k.state === 'active')!.parent_kid, root.kid);
    assert.equal((await census()).unreadable, 0);
    await assertReadable();
    // A second import of the same key is refused: it is no longer pending.
    assert.equal((await api('POST', `/keys/encryption/${root.kid}`, { wrapped_key: wrapForImport(publicKey, randomBytes(32)) })).statusCode, 409);
    assert.equal((await api('POST', `/keys/encryption/${root.kid}/wrapping-key`)).statusCode, 409);

    // A rekey under the customer's root key wraps the new master key with it.
    assert.equal((await api('POST', '/keys/encryption/rekey')).statusCode, 204);
    assert.equal(await runJobs(), 1);
    assert.equal((await keys()).find((k) => k.type === 'tenant-master-key' && k.state === 'active')!.parent_kid, root.kid);
    await assertReadable();

    assert.equal((await api('DELETE', `/keys/encryption/${root.kid}`)).statusCode, 204);
    const back = await keys();
    assert.equal(back.find((k) => k.type === 'environment-root-key')!.state, 'active');
    assert.equal(back.find((k) => k.type === 'tenant-master-key' && k.state === 'active')!.parent_kid, t.ctx.box.rootKid);
    assert.equal(back.some((k) => k.kid === root.kid), false);
    const other = await createContext(t.config, createLogger(t.config));
    try {
      assert.equal((await sealedValueCensus(other, t.tenant.id)).unreadable, 0);
    } finally {
      await other.close();
    }
    await assertReadable();
  });

  it('refusals: kid format, unknown kid, key types, the environment root key, body, scopes', async () => {
    const badKid = await api('GET', '/keys/encryption/not-a-uuid');
    assert.equal(badKid.statusCode, 400);
    assert.deepEqual(badKid.json(), { statusCode: 400, error: 'Bad Request', message: 'Invalid UUID format in uri.', errorCode: 'invalid_uri' });
    assert.equal((await api('GET', '/keys/encryption/3f1b1f5e-0000-4000-8000-000000000000')).statusCode, 404);
    assert.equal((await api('POST', '/keys/encryption/3f1b1f5e-0000-4000-8000-000000000000/wrapping-key')).statusCode, 404);
    assert.equal((await api('DELETE', '/keys/encryption/3f1b1f5e-0000-4000-8000-000000000000')).statusCode, 204);
    const tek = await api('POST', '/keys/encryption', { type: 'tenant-encryption-key' });
    assert.equal(tek.statusCode, 400);
    assert.match(tek.json().message, /Unsupported key "type" provided/);
    assert.equal((await api('POST', '/keys/encryption', { type: 'environment-root-key' })).statusCode, 400);
    assert.equal((await api('POST', '/keys/encryption', { type: 'customer-provided-root-key', extra: 1 })).statusCode, 400);
    const root = await api('DELETE', `/keys/encryption/${t.ctx.box.rootKid}`);
    assert.equal(root.statusCode, 400);
    assert.match(root.json().message, /environment root key cannot be deleted/);
    const wrappingOfRoot = await api('POST', `/keys/encryption/${t.ctx.box.rootKid}/wrapping-key`);
    assert.equal(wrappingOfRoot.statusCode, 404);
    assert.equal((await api('POST', `/keys/encryption/${t.ctx.box.rootKid}`, { wrapped_key: 'not base64 !' })).statusCode, 400);

    const readOnly = await t.managementToken('read:encryption_keys');
    assert.equal((await api('GET', '/keys/encryption', undefined, readOnly)).statusCode, 200);
    assert.equal((await api('POST', '/keys/encryption', { type: 'customer-provided-root-key' }, readOnly)).statusCode, 403);
    const createOnly = await t.managementToken('create:encryption_keys');
    const rekey = await api('POST', '/keys/encryption/rekey', undefined, createOnly);
    assert.equal(rekey.statusCode, 403);
    assert.equal(rekey.json().message, 'Insufficient scope; expected create:encryption_keys and update:encryption_keys.');
    assert.equal((await api('GET', '/keys/encryption', undefined, createOnly)).statusCode, 403);
    assert.equal((await api('DELETE', `/keys/encryption/${t.ctx.box.rootKid}`, undefined, readOnly)).statusCode, 403);
  });
});
