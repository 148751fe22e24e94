/**
 * Behavioural conformance of the push-notification settings store, against
 * SQLite and PostgreSQL as conformance.test.ts does: each case checks a
 * documented contract of GuardianPushStore on the migrated schema, in
 * tenants of its own.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Db } from '../../src/storage/database.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import type { GuardianPushRow, SnsSettings } from '../../src/domain/guardian/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';

const T0 = '2024-01-01T00:00:00.000Z';
const T1 = '2024-01-01T00:00:01.000Z';
const T2 = '2024-01-01T00:00:02.000Z';

await forEachStoreFactory('guardian push-notification store', (h) => {
  // Tenants are seeded and deleted, and the settings row read column by
  // column (the sealed secrets have columns of their own), in SQL.
  let db: Db;
  let store: Stores['guardian'];

  before(() => {
    db = h.db();
    store = h.stores().guardian;
  });

  async function newTenant(): Promise<string> {
    const id = newPrefixedId('ten');
    const name = `t-${randomString(12, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;
    await db.insertInto('tenants').values({ id, name, domain: `${name}.example.test`, settings: '{}', created_at: T0 }).execute();
    return id;
  }

  const row = (tenantId: string): Promise<GuardianPushRow | undefined> =>
    db.selectFrom('guardian_push_notification').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();

  it('get: the defaults for a tenant that never wrote anything, without creating a row', async () => {
    const tenant = await newTenant();
    assert.deepEqual(await store.get(tenant), { enabled: false, selected_provider: 'guardian', apns: null, sns: null });
    assert.equal(await row(tenant), undefined);
  });

  it('setEnabled and setSelectedProvider create the row, then change only their column', async () => {
    const tenant = await newTenant();
    await store.setEnabled(tenant, true, T1);
    assert.deepEqual(await row(tenant), {
      tenant_id: tenant,
      enabled: 1,
      selected_provider: 'guardian',
      apns: null,
      apns_p12_enc: null,
      sns: null,
      sns_secret_access_key_enc: null,
      fcm_server_key_enc: null,
      fcmv1_credentials_enc: null,
      updated_at: T1,
    });
    await store.replaceApns(tenant, { bundle_id: 'com.x', p12_enc: 'sealed-p12' }, T1);
    await store.setSelectedProvider(tenant, 'sns', T2);
    await store.setEnabled(tenant, false, T2);
    assert.deepEqual(await store.get(tenant), {
      enabled: false,
      selected_provider: 'sns',
      apns: { bundle_id: 'com.x', p12_enc: 'sealed-p12' },
      sns: null,
    });
    assert.equal((await row(tenant))?.updated_at, T2);
  });

  it('replaceApns: members left out are cleared, the p12 included; the stored settings are returned', async () => {
    const tenant = await newTenant();
    const first = await store.replaceApns(tenant, { sandbox: true, bundle_id: 'com.a', p12_enc: 'sealed-1' }, T1);
    assert.deepEqual(first, { sandbox: true, bundle_id: 'com.a', p12_enc: 'sealed-1' });
    const second = await store.replaceApns(tenant, { sandbox: false }, T2);
    assert.deepEqual(second, { sandbox: false });
    assert.deepEqual((await store.get(tenant)).apns, { sandbox: false });
    assert.equal((await row(tenant))?.apns_p12_enc, null);
  });

  it('replaceApns with no members still marks APNs as configured', async () => {
    const tenant = await newTenant();
    await store.replaceApns(tenant, {}, T1);
    assert.deepEqual((await store.get(tenant)).apns, {});
  });

  it('mergeApns: absent or undefined members are kept, given ones overwrite, null included', async () => {
    const tenant = await newTenant();
    await store.replaceApns(tenant, { sandbox: true, bundle_id: 'com.a', p12_enc: 'sealed-1' }, T1);
    const merged = await store.mergeApns(tenant, { sandbox: false, bundle_id: undefined }, T2);
    assert.deepEqual(merged, { sandbox: false, bundle_id: 'com.a', p12_enc: 'sealed-1' });
    const cleared = await store.mergeApns(tenant, { bundle_id: null, p12_enc: null }, T2);
    assert.deepEqual(cleared, { sandbox: false, bundle_id: null });
    assert.deepEqual((await store.get(tenant)).apns, { sandbox: false, bundle_id: null });
    assert.equal((await row(tenant))?.updated_at, T2);
  });

  it('mergeApns on a tenant without a row creates it with the defaults', async () => {
    const tenant = await newTenant();
    assert.deepEqual(await store.mergeApns(tenant, { bundle_id: 'com.new' }, T1), { bundle_id: 'com.new' });
    assert.deepEqual(await store.get(tenant), {
      enabled: false,
      selected_provider: 'guardian',
      apns: { bundle_id: 'com.new' },
      sns: null,
    });
  });

  it('replaceSns and mergeSns: the secret key has its own column, the rest is kept as given', async () => {
    const tenant = await newTenant();
    const full: SnsSettings = {
      aws_access_key_id_enc: 'sealed-id',
      aws_secret_access_key_enc: 'sealed-secret',
      aws_region: 'us-east-1',
      sns_apns_platform_application_arn: 'arn:apns',
      sns_gcm_platform_application_arn: 'arn:gcm',
    };
    assert.deepEqual(await store.replaceSns(tenant, full, T1), full);
    const stored = await row(tenant);
    assert.equal(stored?.sns_secret_access_key_enc, 'sealed-secret');
    assert.ok(!stored?.sns?.includes('sealed-secret'), 'the secret is not in the JSON column too');
    assert.deepEqual((await store.get(tenant)).sns, full);

    assert.deepEqual(await store.mergeSns(tenant, { aws_region: null, sns_gcm_platform_application_arn: 'arn:gcm2' }, T2), {
      ...full,
      aws_region: null,
      sns_gcm_platform_application_arn: 'arn:gcm2',
    });
    assert.deepEqual(await store.replaceSns(tenant, { aws_region: 'eu-west-1' }, T2), { aws_region: 'eu-west-1' });
    assert.deepEqual((await store.get(tenant)).sns, { aws_region: 'eu-west-1' });
    assert.equal((await row(tenant))?.sns_secret_access_key_enc, null);
  });

  it('APNs and SNS writes leave each other, the selection and the flag alone', async () => {
    const tenant = await newTenant();
    await store.setEnabled(tenant, true, T1);
    await store.setSelectedProvider(tenant, 'direct', T1);
    await store.replaceApns(tenant, { bundle_id: 'com.a' }, T1);
    await store.replaceSns(tenant, { aws_region: 'us-west-2' }, T1);
    await store.mergeApns(tenant, { sandbox: true }, T2);
    await store.mergeSns(tenant, { aws_secret_access_key_enc: 's' }, T2);
    assert.deepEqual(await store.get(tenant), {
      enabled: true,
      selected_provider: 'direct',
      apns: { bundle_id: 'com.a', sandbox: true },
      sns: { aws_region: 'us-west-2', aws_secret_access_key_enc: 's' },
    });
  });

  it('tenants do not see each other', async () => {
    const a = await newTenant();
    const b = await newTenant();
    await store.replaceApns(a, { bundle_id: 'com.a' }, T1);
    await store.mergeSns(b, { aws_region: 'us-east-2' }, T1);
    await store.setSelectedProvider(b, 'sns', T1);
    assert.deepEqual(await store.get(a), { enabled: false, selected_provider: 'guardian', apns: { bundle_id: 'com.a' }, sns: null });
    assert.deepEqual(await store.get(b), { enabled: false, selected_provider: 'sns', apns: null, sns: { aws_region: 'us-east-2' } });
  });

  it('concurrent merges of different members lose none of them', async () => {
    const tenant = await newTenant();
    for (let round = 0; round < 5; round++) {
      const changes: SnsSettings[] = [
        { aws_access_key_id_enc: `id-${round}` },
        { aws_secret_access_key_enc: `secret-${round}` },
        { aws_region: `us-east-${round}` },
        { sns_apns_platform_application_arn: `apns-${round}` },
        { sns_gcm_platform_application_arn: `gcm-${round}` },
      ];
      await Promise.all([
        ...changes.map((change) => store.mergeSns(tenant, change, T1)),
        store.mergeApns(tenant, { bundle_id: `com.${round}` }, T1),
        store.mergeApns(tenant, { sandbox: round % 2 === 0 }, T1),
      ]);
      assert.deepEqual((await store.get(tenant)).sns, Object.assign({}, ...changes));
      assert.deepEqual((await store.get(tenant)).apns, { bundle_id: `com.${round}`, sandbox: round % 2 === 0 });
    }
  });

  it('concurrent first writes of a tenant create one row and keep every member', async () => {
    const tenant = await newTenant();
    await Promise.all([
      store.mergeApns(tenant, { bundle_id: 'com.a' }, T1),
      store.mergeApns(tenant, { sandbox: true }, T1),
      store.setEnabled(tenant, true, T1),
      store.setSelectedProvider(tenant, 'sns', T1),
    ]);
    assert.deepEqual(await store.get(tenant), {
      enabled: true,
      selected_provider: 'sns',
      apns: { bundle_id: 'com.a', sandbox: true },
      sns: null,
    });
  });

  it('a write for an unknown tenant fails and leaves nothing behind', async () => {
    const ghost = newPrefixedId('ten');
    await assert.rejects(store.replaceApns(ghost, { bundle_id: 'com.x' }, T1));
    await assert.rejects(store.mergeSns(ghost, { aws_region: 'us-east-1' }, T1));
    await assert.rejects(store.setEnabled(ghost, true, T1));
    assert.equal(await row(ghost), undefined);
  });

  it('deleting a tenant deletes its settings (ON DELETE CASCADE)', async () => {
    const tenant = await newTenant();
    await store.replaceApns(tenant, { bundle_id: 'com.x', p12_enc: 'sealed' }, T1);
    await db.deleteFrom('tenants').where('id', '=', tenant).execute();
    assert.equal(await row(tenant), undefined);
  });
});
