/**
 * The hosted pages' settings store (branding, prompts settings, custom texts),
 * on every implementation: a document is stored, replaced by the next put of
 * the same (kind, key), listed by kind in key order, and kept apart per tenant
 * and kind; nothing is found before a put.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, T0, tenantRow } from '../helpers/rows.js';

await forEachStoreFactory('ui settings storage', (h) => {
  let stores: Stores;
  before(() => {
    stores = h.stores();
  });

  async function newTenant(): Promise<string> {
    const row = tenantRow();
    await stores.tenants.create({ tenant: row, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    return row.id;
  }

  it('puts, replaces, gets and lists documents per tenant and kind', async () => {
    const a = await newTenant();
    const b = await newTenant();
    assert.equal(await stores.uiSettings.get(a, 'branding', ''), undefined);
    await stores.uiSettings.put({ tenant_id: a, kind: 'branding', key: '', value: { colors: { primary: '#123456' } }, updated_at: T0 });
    await stores.uiSettings.put({ tenant_id: a, kind: 'branding', key: '', value: { logo_url: 'https://x.example/l.png' }, updated_at: at(10) });
    const branding = await stores.uiSettings.get(a, 'branding', '');
    assert.deepEqual(branding?.value, { logo_url: 'https://x.example/l.png' }, 'the second put replaced the first');
    assert.equal(branding?.updated_at, at(10));
    assert.equal(await stores.uiSettings.get(b, 'branding', ''), undefined, 'another tenant');
    assert.equal(await stores.uiSettings.get(a, 'prompts', ''), undefined, 'another kind');

    await stores.uiSettings.put({ tenant_id: a, kind: 'custom_text', key: 'signup/fr', value: { signup: { title: 'Inscription' } }, updated_at: T0 });
    await stores.uiSettings.put({ tenant_id: a, kind: 'custom_text', key: 'login/fr', value: { login: { title: 'Bonjour' } }, updated_at: T0 });
    await stores.uiSettings.put({ tenant_id: b, kind: 'custom_text', key: 'login/de', value: {}, updated_at: T0 });
    assert.deepEqual(
      (await stores.uiSettings.list(a, 'custom_text')).map((r) => [r.key, r.value]),
      [
        ['login/fr', { login: { title: 'Bonjour' } }],
        ['signup/fr', { signup: { title: 'Inscription' } }],
      ],
    );
  });
});
