/**
 * Encryption keys driven by the official `auth0` SDK (ManagementClient, v7)
 * over real HTTPS: `keys.encryption.list`, `rekey` (the job moves the
 * tenant's secrets; a client secret reads the same after), `get`, `create` of
 * a customer-provided root key, `createPublicWrappingKey`, `import` of key
 * material wrapped with CKM_RSA_AES_KEY_WRAP, `delete`. Refusals: a kid that
 * is not a UUID, an unknown kid, a second rekey while one runs, a tenant
 * encryption key created directly, material wrapped for another key, the
 * active encryption key deleted, the environment root key deleted.
 */
import assert from 'node:assert/strict';
import { constants, createCipheriv, createPublicKey, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { caFetch, cleanUp, waitFor } from './support/https.js';
import { sdkError } from './support/sdk-error.js';

/** CKM_RSA_AES_KEY_WRAP: an ephemeral AES key under RSA-OAEP (SHA-256), then the key under it with AES key wrap with padding. */
function wrapForImport(publicPem: string, key: Buffer): string {
  const ephemeral = randomBytes(32);
  const head = publicEncrypt({ key: createPublicKey(publicPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ephemeral);
  const cipher = createCipheriv('id-aes256-wrap-pad', ephemeral, Buffer.from('A65959A6', 'hex'));
  return Buffer.concat([head, cipher.update(key), cipher.final()]).toString('base64');
}

describe('auth0 SDK: encryption keys', () => {
  let server: ServerProcess;
  let management: ManagementClient;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000', GATEHOUSE_ENCRYPTION_KEYS_REFRESH: '1', GATEHOUSE_JOB_LEASE: '2' } });
    const admin = server.admin();
    management = new ManagementClient({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, maxRetries: 0, fetch: caFetch(fs.readFileSync(server.certFile)) as unknown as typeof fetch });
  });
  after(() => cleanUp([server].filter(Boolean), [server?.dataDir].filter(Boolean) as string[]));

  const list = async () => (await management.keys.encryption.list()).data;

  it('list, rekey (secrets read the same after), get; a second rekey while one runs is refused', async () => {
    const before = await list();
    assert.deepEqual(before.map((k) => [k.type, k.state]), [['environment-root-key', 'active']]);
    const rootKid = before[0]!.kid;
    assert.deepEqual(await management.keys.encryption.get(rootKid), before[0]);
    const client = await management.clients.create({ name: 'sealed', app_type: 'non_interactive' });

    await management.keys.encryption.rekey();
    const running = await sdkError(() => management.keys.encryption.rekey());
    assert.equal(running.statusCode, 409);
    assert.equal(running.body.message, 'A rekey of this tenant is already in progress.');

    // The job ends when the new keys are active and the secret is under the new encryption key: a new rekey is then accepted.
    assert.ok(await waitFor(async () => (await list()).some((k) => k.type === 'tenant-encryption-key' && k.state === 'active'), 60_000));
    let accepted = false;
    assert.ok(await waitFor(async () => {
      accepted = await management.keys.encryption.rekey().then(() => true, () => false);
      return accepted;
    }, 60_000), 'the first rekey did not end');
    const keys = await list();
    const tek = keys.find((k) => k.type === 'tenant-encryption-key' && k.state !== 'pre-activation')!;
    const tmk = keys.find((k) => k.kid === tek.parent_kid)!;
    assert.equal(tmk.type, 'tenant-master-key');
    assert.equal(tmk.parent_kid, rootKid);
    const got = await management.keys.encryption.get(tek.kid);
    assert.equal(got.type, 'tenant-encryption-key');
    assert.equal((await management.clients.get(client.client_id!)).client_secret, client.client_secret);

    // The second rekey retires the first's keys once it has moved everything.
    assert.ok(await waitFor(async () => (await management.keys.encryption.get(tek.kid)).state === 'destroyed', 60_000), 'the old key was not retired');
    assert.equal((await management.keys.encryption.get(tmk.kid)).state, 'destroyed');
    assert.equal((await management.clients.get(client.client_id!)).client_secret, client.client_secret);
    const active = (await list()).find((k) => k.type === 'tenant-encryption-key' && k.state === 'active')!;
    const inUse = await sdkError(() => management.keys.encryption.delete(active.kid));
    assert.equal(inUse.statusCode, 400);
    assert.match(inUse.body.message, /is in use; a rekey retires it/);
    await management.keys.encryption.delete(tek.kid);
    assert.equal((await sdkError(() => management.keys.encryption.get(tek.kid))).statusCode, 404);
  });

  it('a customer-provided root key: create, wrapping key, import, delete', async () => {
    const created = await management.keys.encryption.create({ type: 'customer-provided-root-key' });
    assert.equal(created.type, 'customer-provided-root-key');
    assert.equal(created.state, 'pre-activation');
    assert.equal((await sdkError(() => management.keys.encryption.create({ type: 'customer-provided-root-key' }))).statusCode, 409);

    const wrapping = await management.keys.encryption.createPublicWrappingKey(created.kid);
    assert.equal(wrapping.algorithm, 'CKM_RSA_AES_KEY_WRAP');
    const other = generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
    const stranger = await sdkError(() => management.keys.encryption.import(created.kid, { wrapped_key: wrapForImport(other, randomBytes(32)) }));
    assert.equal(stranger.statusCode, 400);
    assert.match(stranger.body.message, /could not be unwrapped/);

    const imported = await management.keys.encryption.import(created.kid, { wrapped_key: wrapForImport(wrapping.public_key, randomBytes(32)) });
    assert.equal(imported.state, 'active');
    const keys = await list();
    assert.equal(keys.find((k) => k.type === 'environment-root-key')!.state, 'deactivated');
    assert.equal(keys.find((k) => k.type === 'tenant-master-key' && k.state === 'active')!.parent_kid, created.kid);
    const client = await management.clients.create({ name: 'under the customer key', app_type: 'non_interactive' });
    assert.equal((await management.clients.get(client.client_id!)).client_secret, client.client_secret);

    await management.keys.encryption.delete(created.kid);
    const after = await list();
    assert.equal(after.find((k) => k.type === 'environment-root-key')!.state, 'active');
    assert.equal(after.some((k) => k.kid === created.kid), false);
    assert.equal((await management.clients.get(client.client_id!)).client_secret, client.client_secret);
  });

  it('refusals in the API error shape', async () => {
    const badKid = await sdkError(() => management.keys.encryption.get('not-a-uuid'));
    assert.deepEqual(badKid.body, { statusCode: 400, error: 'Bad Request', message: 'Invalid UUID format in uri.', errorCode: 'invalid_uri' });
    assert.equal((await sdkError(() => management.keys.encryption.get('6c1f0b8e-0000-4000-8000-000000000000'))).statusCode, 404);
    const tek = await sdkError(() => management.keys.encryption.create({ type: 'tenant-encryption-key' }));
    assert.equal(tek.statusCode, 400);
    assert.match(tek.body.message, /only a customer-provided-root-key can be created/);
    const rootKid = (await list()).find((k) => k.type === 'environment-root-key')!.kid;
    const root = await sdkError(() => management.keys.encryption.delete(rootKid));
    assert.equal(root.statusCode, 400);
    assert.equal(root.body.message, 'The environment root key cannot be deleted.');
    assert.equal((await sdkError(() => management.keys.encryption.createPublicWrappingKey(rootKid))).statusCode, 404);
  });
});
