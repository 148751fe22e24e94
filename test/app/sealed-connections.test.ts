/**
 * Connections' upstream secrets sealed at rest (src/app/sealed-connections.ts,
 * src/domain/connections/sealed-options.ts), through the real app and
 * database: the stored options hold no `client_secret`, Apple's key or
 * Workspace admin token in clear, the Management API still answers them as the service does, a
 * client's own `gatehouse:sealed` member is never trusted, a sealed value
 * copied into another connection does not open there, and a rekey re-seals
 * them under the same binding.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openOptionSecrets, sealOptionSecrets } from '../../src/domain/connections/sealed-options.js';
import { SEALED_VALUE_SOURCES } from '../../src/domain/encryption/sealed-values.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const SECRET = 'gh-upstream-secret-7c41d2';
const APPLE_KEY = '-----BEGIN PRIVATE KEY-----\nMIGapplekey9d1e\n-----END PRIVATE KEY-----';

describe('connection secrets sealed at rest', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  async function stored(id: string): Promise<string> {
    const row = await t.ctx.database.db.selectFrom('connections').select('options').where('id', '=', id).executeTakeFirstOrThrow();
    return row.options as string;
  }
  async function create(name: string, strategy: string, options: Record<string, unknown>): Promise<string> {
    const res = await t.management('POST', '/api/v2/connections', { body: { name, strategy, options } });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { id: string }).id;
  }
  const read = async (id: string) => (await t.management('GET', `/api/v2/connections/${id}`)).json() as { options: Record<string, unknown> };

  it('stores client_secret and app_secret sealed; the Management API answers them in clear, without the reserved member', async () => {
    const github = await create('sealed-github', 'github', { client_id: 'h', client_secret: SECRET, email: true });
    const apple = await create('sealed-apple', 'apple', { client_id: 'com.example', app_secret: APPLE_KEY, kid: 'K', team_id: 'T' });
    for (const [id, member, value] of [[github, 'client_secret', SECRET], [apple, 'app_secret', APPLE_KEY]] as const) {
      const raw = await stored(id);
      assert.ok(!raw.includes(value.split('\n')[1] ?? value), `${member} is not in the stored options`);
      const options = JSON.parse(raw) as Record<string, unknown>;
      assert.equal(options[member], undefined);
      assert.match((options['gatehouse:sealed'] as Record<string, string>)[member]!, /^v[12]\./);
      const answered = await read(id);
      assert.equal(answered.options[member], value);
      assert.equal(answered.options['gatehouse:sealed'], undefined);
    }
    // A Workspace connection's admin tokens (directory provisioning) likewise.
    const workspace = sealOptionSecrets(t.ctx.box, t.tenant.id, 'con_w', { client_id: 'w', client_secret: 'workspace-secret-51', domain: 'example.com', admin_refresh_token: 'admin-refresh-9f3a', admin_access_token: 'admin-access-77' });
    assert.doesNotMatch(JSON.stringify(workspace), /workspace-secret-51|admin-refresh-9f3a|admin-access-77/);
    assert.deepEqual(openOptionSecrets(t.ctx.box, t.tenant.id, 'con_w', workspace), { client_id: 'w', client_secret: 'workspace-secret-51', domain: 'example.com', admin_refresh_token: 'admin-refresh-9f3a', admin_access_token: 'admin-access-77' });
    const list = (await t.management('GET', '/api/v2/connections?strategy=github')).json() as { options: Record<string, unknown> }[];
    assert.equal(list.find((c) => c.options.client_id === 'h')?.options.client_secret, SECRET);
  });

  it("a client's gatehouse:sealed member is discarded; the secret sent is the one kept", async () => {
    const id = await create('sealed-forged', 'github', { client_id: 'f', client_secret: 'first' });
    const other = JSON.parse(await stored((await t.ctx.stores.connections.getByName(t.tenant.id, 'sealed-github'))!.id)) as Record<string, unknown>;
    const patched = await t.management('PATCH', `/api/v2/connections/${id}`, { body: { options: { client_id: 'f', client_secret: 'second', 'gatehouse:sealed': other['gatehouse:sealed'] } } });
    assert.ok(patched.statusCode === 200 || patched.statusCode === 400, patched.body);
    const answered = await read(id);
    assert.equal(answered.options.client_secret, patched.statusCode === 200 ? 'second' : 'first');
    assert.equal(answered.options['gatehouse:sealed'], undefined);
    assert.notEqual(answered.options.client_secret, SECRET);
  });

  it("a sealed value copied into another connection's row does not open there", async () => {
    const source = (await t.ctx.stores.connections.getByName(t.tenant.id, 'sealed-github'))!;
    const target = await create('sealed-target', 'github', { client_id: 't', client_secret: 'target-secret' });
    await t.ctx.database.db.updateTable('connections').set({ options: await stored(source.id) }).where('id', '=', target).execute();
    const answered = await read(target);
    assert.equal(answered.options.client_secret, undefined, 'bound to its own connection');
  });

  it('a rekey moves each sealed secret under the same binding', async () => {
    const id = (await t.ctx.stores.connections.getByName(t.tenant.id, 'sealed-github'))!.id;
    const source = SEALED_VALUE_SOURCES.find((s) => s.name === 'connection secrets')!;
    const contexts: string[] = [];
    const changes = source.reseal(t.tenant.id, { id, options: await stored(id) }, (sealed, context) => {
      contexts.push(context);
      return t.ctx.box.seal(t.ctx.box.openString(sealed!, context), context, t.tenant.id);
    });
    assert.deepEqual(contexts, [`connection_secret:${t.tenant.id}:${id}:client_secret`]);
    await t.ctx.database.db.updateTable('connections').set({ options: changes!.options! }).where('id', '=', id).execute();
    assert.equal((await read(id)).options.client_secret, SECRET);
  });
});
