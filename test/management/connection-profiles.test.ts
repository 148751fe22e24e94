/**
 * /api/v2/connection-profiles through the official `auth0` SDK
 * (ManagementClient `connectionProfiles.*`) over real HTTPS, on SQLite and
 * PostgreSQL: every operation of the service's document (list with
 * checkpoint paging, create, get, update, delete, listTemplates,
 * getTemplate), and the refusals: bad bodies 400 in the Management API's
 * error shape (changing nothing), a taken name 409, unknown ids and
 * templates 404, a missing scope 403, another tenant's profile 404, the
 * 101st profile 403, a client naming an unknown profile 400, deleting a
 * profile a client names 409.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { createHttpsTestApp, type HttpsTestApp } from '../helpers/https-app.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { sdkError } from '../e2e/support/sdk-error.js';

const postgresSkip = (await postgresAvailable()) ? false : 'PostgreSQL is not reachable';

const FULL = {
  name: 'Acme express',
  organization: { show_as_button: 'required', assign_membership_on_login: 'optional' },
  connection_name_prefix_template: 'acme-{org_id}',
  enabled_features: ['scim', 'universal_logout'],
  connection_config: {},
  strategy_overrides: { samlp: { enabled_features: ['scim'], connection_config: {} }, 'google-apps': { enabled_features: [] } },
} as const;

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`/api/v2/connection-profiles with the auth0 SDK over HTTPS (${database})`, { skip: database === 'PostgreSQL' && postgresSkip }, () => {
    let h: HttpsTestApp;
    let sdk: ManagementClient;

    before(async () => {
      h = await createHttpsTestApp({ postgres: database === 'PostgreSQL' });
      sdk = await h.sdk();
    });
    after(async () => h?.close());

    it('creates, reads, lists, changes and deletes a profile', async () => {
      const created = await sdk.connectionProfiles.create(FULL as never);
      assert.match(created.id!, /^cop_[A-Za-z0-9]{16}$/);
      assert.deepEqual({ ...created, id: undefined }, { id: undefined, ...FULL });
      assert.deepEqual(await sdk.connectionProfiles.get(created.id!), created);

      const minimal = await sdk.connectionProfiles.create({ name: 'Minimal' });
      assert.deepEqual(minimal, { id: minimal.id, name: 'Minimal' }, 'only the members given');

      const changed = await sdk.connectionProfiles.update(created.id!, { name: 'Acme renamed', enabled_features: ['universal_logout', 'universal_logout'] });
      assert.equal(changed.name, 'Acme renamed');
      assert.deepEqual(changed.enabled_features, ['universal_logout'], 'a feature named twice is kept once');
      assert.deepEqual(changed.organization, FULL.organization, 'members not named stay');
      assert.deepEqual(changed.strategy_overrides, FULL.strategy_overrides);
      assert.deepEqual(await sdk.connectionProfiles.get(created.id!), changed);

      await sdk.connectionProfiles.delete(minimal.id!);
      assert.equal((await sdkError(() => sdk.connectionProfiles.get(minimal.id!))).statusCode, 404);
      await sdk.connectionProfiles.delete(minimal.id!);
      await sdk.connectionProfiles.delete(created.id!);
    });

    it('lists with checkpoint paging: 5 by default, at most 10 a page, `next` absent on the last page', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await sdk.connectionProfiles.create({ name: `paged ${i}` })).id!);
      const plain = await h.request('GET', '/connection-profiles');
      assert.equal(plain.status, 200);
      assert.equal(plain.body.connection_profiles.length, 5, 'the document: defaults to 5');
      assert.ok(plain.body.next);
      // The SDK sends take=50 unless told otherwise: pages of the document's maximum, 10.
      const first = await sdk.connectionProfiles.list();
      assert.equal(first.data.length, 10);
      assert.ok(first.response.next);
      assert.ok(first.hasNextPage());
      const firstIds = first.data.map((p) => p.id);
      // The SDK's page moves on in place: `second` is `first` holding the next page.
      const second = await first.getNextPage();
      assert.equal(second.data.length, 2);
      assert.equal(second.hasNextPage(), false);
      assert.equal(second.response.next, undefined);
      const seen = [...firstIds, ...second.data.map((p) => p.id)];
      assert.deepEqual([...seen].sort(), [...ids].sort(), 'every profile once');
      const collected: string[] = [];
      for await (const profile of await sdk.connectionProfiles.list({ take: 3 })) collected.push(profile.id!);
      assert.deepEqual(collected, seen, 'the SDK walks the pages in id order');
      const refused = await sdkError(() => sdk.connectionProfiles.list({ take: 0 }));
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.body.statusCode, 400);
      assert.match(refused.body.message, /take/);
      assert.equal((await sdkError(() => sdk.connectionProfiles.list({ from: 'not-a-checkpoint' }))).statusCode, 400);
      for (const id of ids) await sdk.connectionProfiles.delete(id);
    });

    it('offers the fixed templates, each a body create accepts', async () => {
      const { connection_profile_templates: templates } = await sdk.connectionProfiles.listTemplates();
      assert.ok(templates && templates.length >= 2);
      for (const item of templates) {
        assert.ok(item.id && item.display_name && item.template?.name);
        assert.deepEqual(await sdk.connectionProfiles.getTemplate(item.id), item);
        const made = await sdk.connectionProfiles.create({ ...item.template, name: item.template.name! });
        assert.deepEqual({ ...made, id: undefined }, { id: undefined, ...item.template });
        await sdk.connectionProfiles.delete(made.id!);
      }
      const missing = await sdkError(() => sdk.connectionProfiles.getTemplate('cpt_nope'));
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.body, { statusCode: 404, error: 'Not Found', message: 'Connection profile template not found.' });
    });

    it('refuses bad bodies with 400 in the error shape, and changes nothing', async () => {
      const kept = await sdk.connectionProfiles.create({ name: 'Kept' });
      const bad: [Record<string, unknown>, RegExp][] = [
        [{}, /name/],
        [{ name: '' }, /name/],
        [{ name: 'x'.repeat(51) }, /name/],
        [{ name: 'ok', enabled_features: ['sso'] }, /enabled_features/],
        [{ name: 'ok', organization: { show_as_button: 'always' } }, /show_as_button/],
        [{ name: 'ok', organization: { other: 'none' } }, /other|additional/i],
        [{ name: 'ok', connection_name_prefix_template: '-leading' }, /connection_name_prefix_template/],
        [{ name: 'ok', connection_name_prefix_template: 'a--b' }, /connection_name_prefix_template/],
        [{ name: 'ok', connection_name_prefix_template: '{org_idx}' }, /connection_name_prefix_template/],
        [{ name: 'ok', connection_name_prefix_template: 'a'.repeat(16) }, /connection_name_prefix_template/],
        [{ name: 'ok', connection_config: { client_id: 'x' } }, /client_id|additional/i],
        [{ name: 'ok', strategy_overrides: { auth0: {} } }, /auth0|additional/i],
        [{ name: 'ok', unknown: true }, /unknown|additional/i],
      ];
      for (const [body, message] of bad) {
        const error = await sdkError(() => sdk.connectionProfiles.create(body as never));
        assert.equal(error.statusCode, 400, JSON.stringify(body));
        assert.equal(error.body.statusCode, 400);
        assert.equal((error.body as { error?: string }).error, 'Bad Request');
        assert.match(error.body.message, message, JSON.stringify(body));
      }
      const patch = await sdkError(() => sdk.connectionProfiles.update(kept.id!, { name: 'Changed', enabled_features: ['nope'] } as never));
      assert.equal(patch.statusCode, 400);
      assert.deepEqual(await sdk.connectionProfiles.get(kept.id!), kept, 'a refused PATCH changes nothing');
      const list = await sdk.connectionProfiles.list({ take: 10 });
      assert.deepEqual(list.data.map((p) => p.name), ['Kept'], 'no refused body was stored');

      const taken = await sdkError(() => sdk.connectionProfiles.create({ name: 'Kept' }));
      assert.equal(taken.statusCode, 409);
      assert.match(taken.body.message, /conflict/i);
      const other = await sdk.connectionProfiles.create({ name: 'Other' });
      assert.equal((await sdkError(() => sdk.connectionProfiles.update(other.id!, { name: 'Kept' }))).statusCode, 409);
      assert.equal((await sdk.connectionProfiles.get(other.id!)).name, 'Other');
      await sdk.connectionProfiles.delete(other.id!);
      await sdk.connectionProfiles.delete(kept.id!);
    });

    it('is refused while a client names it, and clients may name only existing profiles', async () => {
      const profile = await sdk.connectionProfiles.create({ name: 'In use' });
      const attributes = await sdk.userAttributeProfiles.create({ name: 'For express', user_attributes: { email: { description: 'Email', label: 'Email', profile_required: true, auth0_mapping: 'email' } } });
      const express = {
        initiate_login_uri_template: 'https://{organization_name}.example.com/login',
        connection_profile_id: profile.id,
        user_attribute_profile_id: attributes.id,
        enable_client: true,
        enable_organization: false,
        vendor_oin_client_id: '0oa1234567890',
        admin_login_domain: 'login.example.com',
      };
      const refused = await h.request('POST', '/clients', { body: { name: 'express', express_configuration: { ...express, connection_profile_id: 'cop_doesnotexist0000' } } });
      assert.equal(refused.status, 400);
      assert.match(refused.body.message, /connection profile cop_doesnotexist0000 does not exist/);
      const client = await h.request('POST', '/clients', { body: { name: 'express', express_configuration: express } });
      assert.equal(client.status, 201, JSON.stringify(client.body));
      const other = await h.request('POST', '/clients', { body: { name: 'my org', my_organization_configuration: { allowed_strategies: ['oidc'], connection_deletion_behavior: 'allow', connection_profile_id: profile.id } } });
      assert.equal(other.status, 201, JSON.stringify(other.body));

      const inUse = await sdkError(() => sdk.connectionProfiles.delete(profile.id!));
      assert.equal(inUse.statusCode, 409);
      assert.equal(inUse.body.errorCode, 'conflict');
      assert.match(inUse.body.message, new RegExp(`in use by the clients ${[client.body.client_id, other.body.client_id].sort().join(', ')};`));
      assert.equal((await sdk.connectionProfiles.get(profile.id!)).name, 'In use', 'still there');
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.delete(attributes.id!))).statusCode, 409, 'the user attribute profile too');

      assert.equal((await h.request('DELETE', `/clients/${other.body.client_id}`)).status, 204);
      const replacement = await sdk.connectionProfiles.create({ name: 'Replacement' });
      assert.equal((await h.request('PATCH', `/clients/${client.body.client_id}`, { body: { express_configuration: { ...express, connection_profile_id: replacement.id } } })).status, 200);
      await sdk.connectionProfiles.delete(profile.id!);
      assert.equal((await sdkError(() => sdk.connectionProfiles.get(profile.id!))).statusCode, 404);
      assert.equal((await sdkError(() => sdk.connectionProfiles.delete(replacement.id!))).statusCode, 409);
      assert.equal((await h.request('DELETE', `/clients/${client.body.client_id}`)).status, 204);
      await sdk.connectionProfiles.delete(replacement.id!);
      await sdk.userAttributeProfiles.delete(attributes.id!);
    });

    it('answers 404 for an unknown profile', async () => {
      const get = await sdkError(() => sdk.connectionProfiles.get('cop_doesnotexist0000'));
      assert.deepEqual(get.body, { statusCode: 404, error: 'Not Found', message: 'Connection profile not found.' });
      assert.equal((await sdkError(() => sdk.connectionProfiles.update('cop_doesnotexist0000', { name: 'x' }))).statusCode, 404);
    });

    it('requires the scope of each operation', async () => {
      const profile = await sdk.connectionProfiles.create({ name: 'Scoped' });
      const reader = await h.sdk('read:connection_profiles');
      assert.equal((await reader.connectionProfiles.get(profile.id!)).name, 'Scoped');
      await reader.connectionProfiles.listTemplates();
      const refusals: [string, () => Promise<unknown>][] = [
        ['create:connection_profiles', () => reader.connectionProfiles.create({ name: 'Nope' })],
        ['update:connection_profiles', () => reader.connectionProfiles.update(profile.id!, { name: 'Nope' })],
        ['delete:connection_profiles', () => reader.connectionProfiles.delete(profile.id!)],
      ];
      for (const [scope, call] of refusals) {
        const error = await sdkError(call);
        assert.equal(error.statusCode, 403);
        assert.equal(error.body.errorCode, 'insufficient_scope');
        assert.match(error.body.message, new RegExp(scope));
      }
      const writer = await h.sdk('create:connection_profiles');
      for (const call of [() => writer.connectionProfiles.list(), () => writer.connectionProfiles.get(profile.id!), () => writer.connectionProfiles.listTemplates(), () => writer.connectionProfiles.getTemplate('cpt_enterprise_sso')]) {
        assert.equal((await sdkError(call)).statusCode, 403);
      }
      assert.equal((await sdk.connectionProfiles.get(profile.id!)).name, 'Scoped', 'nothing changed');
      await sdk.connectionProfiles.delete(profile.id!);
    });

    it('keeps tenants apart', async () => {
      const mine = await sdk.connectionProfiles.create({ name: 'Shared name' });
      const other = await (await h.other()).sdk();
      assert.equal((await sdkError(() => other.connectionProfiles.get(mine.id!))).statusCode, 404);
      assert.equal((await sdkError(() => other.connectionProfiles.update(mine.id!, { name: 'Taken over' }))).statusCode, 404);
      await other.connectionProfiles.delete(mine.id!);
      assert.deepEqual((await other.connectionProfiles.list()).data, []);
      const theirs = await other.connectionProfiles.create({ name: 'Shared name' });
      assert.notEqual(theirs.id, mine.id, 'names are unique per tenant only');
      assert.deepEqual(await sdk.connectionProfiles.get(mine.id!), mine, 'untouched by the other tenant');
      assert.deepEqual((await sdk.connectionProfiles.list()).data.map((p) => p.id), [mine.id]);
      await sdk.connectionProfiles.delete(mine.id!);
    });

    it('refuses a profile past the 100 of a tenant with 403, and writes nothing', async () => {
      const now = new Date().toISOString();
      const ids = Array.from({ length: 100 }, (_, i) => `cop_limit${String(i).padStart(3, '0')}`);
      for (const [i, id] of ids.entries()) {
        assert.ok(await h.t.ctx.stores.connectionProfiles.create({ tenant_id: h.t.tenant.id, id, name: `limit ${i}`, profile: {}, created_at: now, updated_at: now }));
      }
      const error = await sdkError(() => sdk.connectionProfiles.create({ name: 'one too many' }));
      assert.equal(error.statusCode, 403);
      assert.match(error.body.message, /limit of entities/);
      assert.equal(await h.t.ctx.stores.connectionProfiles.count(h.t.tenant.id), 100);
      for (const id of ids) await sdk.connectionProfiles.delete(id);
      assert.equal(await h.t.ctx.stores.connectionProfiles.count(h.t.tenant.id), 0);
    });
  });
}
