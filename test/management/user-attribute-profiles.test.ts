/**
 * /api/v2/user-attribute-profiles through the official `auth0` SDK
 * (ManagementClient `userAttributeProfiles.*`) over real HTTPS, on SQLite
 * and PostgreSQL: every operation of the service's document (list with
 * checkpoint paging, create, get, update with `user_id: null`, delete,
 * listTemplates, getTemplate), and the refusals: bad bodies 400 in the
 * Management API's error shape (changing nothing), a taken name 409, unknown
 * ids and templates 404, a missing scope 403, another tenant's profile 404,
 * the 101st profile 403, a client or self-service profile naming an unknown
 * profile 400, deleting a profile one of them names 409.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { createHttpsTestApp, type HttpsTestApp } from '../helpers/https-app.js';
import { postgresAvailable } from '../helpers/postgres.js';
import { sdkError } from '../e2e/support/sdk-error.js';

const postgresSkip = (await postgresAvailable()) ? false : 'PostgreSQL is not reachable';

const EMAIL = {
  description: 'Work email',
  label: 'Email',
  profile_required: true,
  auth0_mapping: 'email',
  oidc_mapping: { mapping: 'email', display_name: 'Email' },
  saml_mapping: ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'],
  scim_mapping: 'emails[primary eq true].value',
  strategy_overrides: { waad: { saml_mapping: ['http://schemas.microsoft.com/identity/claims/emailaddress'] }, okta: { scim_mapping: 'userName' } },
};
const FULL = {
  name: 'Workforce',
  user_id: { oidc_mapping: 'sub', saml_mapping: ['nameid'], scim_mapping: 'externalId', strategy_overrides: { waad: { oidc_mapping: 'oid' } } },
  user_attributes: { email: EMAIL, department: { description: 'Department', label: 'Department', profile_required: false, auth0_mapping: 'user_metadata.department' } },
} as const;
const simple = (name: string) => ({ name, user_attributes: { email: { description: 'Email', label: 'Email', profile_required: true, auth0_mapping: 'email' } } });

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`/api/v2/user-attribute-profiles with the auth0 SDK over HTTPS (${database})`, { skip: database === 'PostgreSQL' && postgresSkip }, () => {
    let h: HttpsTestApp;
    let sdk: ManagementClient;

    before(async () => {
      h = await createHttpsTestApp({ postgres: database === 'PostgreSQL' });
      sdk = await h.sdk();
    });
    after(async () => h?.close());

    it('creates, reads, lists, changes and deletes a profile', async () => {
      const created = await sdk.userAttributeProfiles.create(FULL as never);
      assert.match(created.id!, /^uap_[A-Za-z0-9]{16}$/);
      assert.deepEqual({ ...created, id: undefined }, { id: undefined, ...FULL });
      assert.deepEqual(await sdk.userAttributeProfiles.get(created.id!), created);

      const renamed = await sdk.userAttributeProfiles.update(created.id!, { name: 'Workforce v2' });
      assert.deepEqual(renamed, { ...created, name: 'Workforce v2' }, 'members not named stay');
      const replaced = await sdk.userAttributeProfiles.update(created.id!, { user_attributes: simple('x').user_attributes });
      assert.deepEqual(replaced.user_attributes, simple('x').user_attributes, 'user_attributes is replaced as a whole');
      assert.deepEqual(replaced.user_id, FULL.user_id);
      const cleared = await sdk.userAttributeProfiles.update(created.id!, { user_id: null });
      assert.equal('user_id' in cleared, false, 'user_id: null removes the mapping');
      assert.deepEqual(await sdk.userAttributeProfiles.get(created.id!), cleared);

      await sdk.userAttributeProfiles.delete(created.id!);
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.get(created.id!))).statusCode, 404);
      await sdk.userAttributeProfiles.delete(created.id!);
    });

    it('lists with checkpoint paging: 5 by default, `next` absent on the last page', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) ids.push((await sdk.userAttributeProfiles.create(simple(`paged ${i}`))).id!);
      const plain = await h.request('GET', '/user-attribute-profiles');
      assert.equal(plain.status, 200);
      assert.equal(plain.body.user_attribute_profiles.length, 5, 'the document: defaults to 5');
      assert.ok(plain.body.next);
      const first = await sdk.userAttributeProfiles.list({ take: 4 });
      assert.equal(first.data.length, 4);
      const firstIds = first.data.map((p) => p.id);
      const second = await first.getNextPage();
      assert.equal(second.data.length, 3);
      assert.equal(second.hasNextPage(), false);
      const seen = [...firstIds, ...second.data.map((p) => p.id)];
      assert.deepEqual([...seen].sort(), [...ids].sort(), 'every profile once');
      const all = await sdk.userAttributeProfiles.list();
      assert.deepEqual(all.data.map((p) => p.id), seen);
      assert.equal(all.hasNextPage(), false);
      for (const take of [0, 101]) assert.equal((await sdkError(() => sdk.userAttributeProfiles.list({ take }))).statusCode, 400, `take=${take}`);
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.list({ from: 'not-a-checkpoint' }))).statusCode, 400);
      for (const id of ids) await sdk.userAttributeProfiles.delete(id);
    });

    it('offers the fixed templates, each a body create accepts', async () => {
      const { user_attribute_profile_templates: templates } = await sdk.userAttributeProfiles.listTemplates();
      assert.ok(templates && templates.length >= 2);
      for (const item of templates) {
        assert.ok(item.id && item.display_name && item.template?.name && item.template.user_attributes);
        assert.deepEqual(await sdk.userAttributeProfiles.getTemplate(item.id), item);
        const made = await sdk.userAttributeProfiles.create(item.template as never);
        assert.deepEqual({ ...made, id: undefined }, { id: undefined, ...item.template });
        await sdk.userAttributeProfiles.delete(made.id!);
      }
      const missing = await sdkError(() => sdk.userAttributeProfiles.getTemplate('uapt_nope'));
      assert.deepEqual(missing.body, { statusCode: 404, error: 'Not Found', message: 'User attribute profile template not found.' });
    });

    it('refuses bad bodies with 400 in the error shape, and changes nothing', async () => {
      const kept = await sdk.userAttributeProfiles.create(simple('Kept'));
      const attribute = simple('x').user_attributes.email;
      const tooMany = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`a${i}`, attribute]));
      const bad: [Record<string, unknown>, RegExp][] = [
        [{ name: 'ok' }, /user_attributes/],
        [{ user_attributes: simple('x').user_attributes }, /name/],
        [{ name: 'x'.repeat(129), user_attributes: simple('x').user_attributes }, /name/],
        [{ name: 'ok', user_attributes: {} }, /user_attributes/],
        [{ name: 'ok', user_attributes: tooMany }, /user_attributes/],
        [{ name: 'ok', user_attributes: { email: { ...attribute, label: undefined } } }, /label/],
        [{ name: 'ok', user_attributes: { email: { ...attribute, profile_required: 'yes' } } }, /profile_required/],
        [{ name: 'ok', user_attributes: { email: { ...attribute, auth0_mapping: 'x'.repeat(51) } } }, /auth0_mapping/],
        [{ name: 'ok', user_attributes: { email: { ...attribute, oidc_mapping: {} } } }, /mapping/],
        [{ name: 'ok', user_attributes: { email: { ...attribute, saml_mapping: [] } } }, /saml_mapping/],
        [{ name: 'ok', user_attributes: { email: { ...attribute, strategy_overrides: { auth0: {} } } } }, /auth0|additional/i],
        [{ name: 'ok', user_attributes: { constructor: attribute } }, /reserved/],
        [{ name: 'ok', user_attributes: simple('x').user_attributes, user_id: { oidc_mapping: 'email' } }, /oidc_mapping/],
        [{ name: 'ok', user_attributes: simple('x').user_attributes, user_id: null }, /user_id/],
        [{ name: 'ok', user_attributes: simple('x').user_attributes, extra: 1 }, /extra|additional/i],
      ];
      for (const [body, message] of bad) {
        const error = await sdkError(() => sdk.userAttributeProfiles.create(body as never));
        assert.equal(error.statusCode, 400, JSON.stringify(body).slice(0, 200));
        assert.equal(error.body.statusCode, 400);
        assert.equal((error.body as { error?: string }).error, 'Bad Request');
        assert.match(error.body.message, message, JSON.stringify(body).slice(0, 200));
      }
      const patch = await sdkError(() => sdk.userAttributeProfiles.update(kept.id!, { name: 'Changed', user_attributes: {} }));
      assert.equal(patch.statusCode, 400);
      assert.deepEqual(await sdk.userAttributeProfiles.get(kept.id!), kept, 'a refused PATCH changes nothing');
      assert.deepEqual((await sdk.userAttributeProfiles.list()).data.map((p) => p.name), ['Kept'], 'no refused body was stored');

      const taken = await sdkError(() => sdk.userAttributeProfiles.create(simple('Kept')));
      assert.equal(taken.statusCode, 409);
      assert.match(taken.body.message, /conflict/i);
      const other = await sdk.userAttributeProfiles.create(simple('Other'));
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.update(other.id!, { name: 'Kept' }))).statusCode, 409);
      assert.equal((await sdk.userAttributeProfiles.get(other.id!)).name, 'Other');
      await sdk.userAttributeProfiles.delete(other.id!);
      await sdk.userAttributeProfiles.delete(kept.id!);
    });

    it('is refused while a client names it, and clients may name only existing profiles', async () => {
      const profile = await sdk.userAttributeProfiles.create(simple('In use'));
      const config = { allowed_strategies: ['oidc'], connection_deletion_behavior: 'allow', user_attribute_profile_id: profile.id };
      const refused = await h.request('POST', '/clients', { body: { name: 'my org', my_organization_configuration: { ...config, user_attribute_profile_id: 'uap_doesnotexist0000' } } });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.errorCode, 'invalid_body');
      assert.match(refused.body.message, /user attribute profile uap_doesnotexist0000 does not exist/);
      const client = await h.request('POST', '/clients', { body: { name: 'my org', my_organization_configuration: config } });
      assert.equal(client.status, 201, JSON.stringify(client.body));
      const inUse = await sdkError(() => sdk.userAttributeProfiles.delete(profile.id!));
      assert.equal(inUse.statusCode, 409);
      assert.match(inUse.body.message, new RegExp(`in use by the client ${client.body.client_id};`));
      assert.equal((await sdk.userAttributeProfiles.get(profile.id!)).name, 'In use', 'still there');
      const moved = await h.request('PATCH', `/clients/${client.body.client_id}`, { body: { my_organization_configuration: { allowed_strategies: ['oidc'], connection_deletion_behavior: 'allow' } } });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      await sdk.userAttributeProfiles.delete(profile.id!);
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.get(profile.id!))).statusCode, 404);
      assert.equal((await h.request('DELETE', `/clients/${client.body.client_id}`)).status, 204);
    });

    it('is named by self-service profiles: only an existing one, and not deleted while named', async () => {
      const profile = await sdk.userAttributeProfiles.create(simple('For self-service'));
      const refused = await sdkError(() => sdk.selfServiceProfiles.create({ name: 'SSO', user_attribute_profile_id: 'uap_doesnotexist0000' }));
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.body.errorCode, 'invalid_body');
      assert.match(refused.body.message, /user attribute profile uap_doesnotexist0000 does not exist/);
      const sso = await sdk.selfServiceProfiles.create({ name: 'SSO', user_attribute_profile_id: profile.id! });
      assert.equal(sso.user_attribute_profile_id, profile.id);
      assert.equal((await sdk.selfServiceProfiles.get(sso.id!)).user_attribute_profile_id, profile.id);
      const badPatch = await sdkError(() => sdk.selfServiceProfiles.update(sso.id!, { user_attribute_profile_id: 'uap_doesnotexist0000' }));
      assert.equal(badPatch.statusCode, 400);
      assert.equal((await sdk.selfServiceProfiles.get(sso.id!)).user_attribute_profile_id, profile.id, 'a refused PATCH changes nothing');

      const inUse = await sdkError(() => sdk.userAttributeProfiles.delete(profile.id!));
      assert.equal(inUse.statusCode, 409);
      assert.match(inUse.body.message, new RegExp(`in use by the self-service profile ${sso.id};`));
      const cleared = await sdk.selfServiceProfiles.update(sso.id!, { user_attribute_profile_id: null });
      assert.equal('user_attribute_profile_id' in cleared, false, 'null: names none');
      await sdk.userAttributeProfiles.delete(profile.id!);
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.get(profile.id!))).statusCode, 404);
      await sdk.selfServiceProfiles.delete(sso.id!);
    });

    it('answers 404 for an unknown profile', async () => {
      const get = await sdkError(() => sdk.userAttributeProfiles.get('uap_doesnotexist0000'));
      assert.deepEqual(get.body, { statusCode: 404, error: 'Not Found', message: 'User attribute profile not found.' });
      assert.equal((await sdkError(() => sdk.userAttributeProfiles.update('uap_doesnotexist0000', { name: 'x' }))).statusCode, 404);
    });

    it('requires the scope of each operation', async () => {
      const profile = await sdk.userAttributeProfiles.create(simple('Scoped'));
      const reader = await h.sdk('read:user_attribute_profiles');
      assert.equal((await reader.userAttributeProfiles.get(profile.id!)).name, 'Scoped');
      await reader.userAttributeProfiles.listTemplates();
      const refusals: [string, () => Promise<unknown>][] = [
        ['create:user_attribute_profiles', () => reader.userAttributeProfiles.create(simple('Nope'))],
        ['update:user_attribute_profiles', () => reader.userAttributeProfiles.update(profile.id!, { name: 'Nope' })],
        ['delete:user_attribute_profiles', () => reader.userAttributeProfiles.delete(profile.id!)],
      ];
      for (const [scope, call] of refusals) {
        const error = await sdkError(call);
        assert.equal(error.statusCode, 403);
        assert.equal(error.body.errorCode, 'insufficient_scope');
        assert.match(error.body.message, new RegExp(scope));
      }
      const writer = await h.sdk('create:user_attribute_profiles');
      for (const call of [() => writer.userAttributeProfiles.list(), () => writer.userAttributeProfiles.get(profile.id!), () => writer.userAttributeProfiles.listTemplates(), () => writer.userAttributeProfiles.getTemplate('uapt_standard')]) {
        assert.equal((await sdkError(call)).statusCode, 403);
      }
      assert.equal((await sdk.userAttributeProfiles.get(profile.id!)).name, 'Scoped', 'nothing changed');
      await sdk.userAttributeProfiles.delete(profile.id!);
    });

    it('keeps tenants apart', async () => {
      const mine = await sdk.userAttributeProfiles.create(simple('Shared name'));
      const other = await (await h.other()).sdk();
      assert.equal((await sdkError(() => other.userAttributeProfiles.get(mine.id!))).statusCode, 404);
      assert.equal((await sdkError(() => other.userAttributeProfiles.update(mine.id!, { name: 'Taken over' }))).statusCode, 404);
      await other.userAttributeProfiles.delete(mine.id!);
      assert.deepEqual((await other.userAttributeProfiles.list()).data, []);
      const theirs = await other.userAttributeProfiles.create(simple('Shared name'));
      assert.notEqual(theirs.id, mine.id, 'names are unique per tenant only');
      assert.deepEqual(await sdk.userAttributeProfiles.get(mine.id!), mine, 'untouched by the other tenant');
      assert.deepEqual((await sdk.userAttributeProfiles.list()).data.map((p) => p.id), [mine.id]);
      await sdk.userAttributeProfiles.delete(mine.id!);
    });

    it('refuses a profile past the 100 of a tenant with 403, and writes nothing', async () => {
      const now = new Date().toISOString();
      const ids = Array.from({ length: 100 }, (_, i) => `uap_limit${String(i).padStart(3, '0')}`);
      for (const [i, id] of ids.entries()) {
        assert.ok(await h.t.ctx.stores.userAttributeProfiles.create({ tenant_id: h.t.tenant.id, id, name: `limit ${i}`, user_id: null, user_attributes: simple('x').user_attributes, created_at: now, updated_at: now }));
      }
      const error = await sdkError(() => sdk.userAttributeProfiles.create(simple('one too many')));
      assert.equal(error.statusCode, 403);
      assert.match(error.body.message, /limit of entities/);
      assert.equal(await h.t.ctx.stores.userAttributeProfiles.count(h.t.tenant.id), 100);
      for (const id of ids) await sdk.userAttributeProfiles.delete(id);
      assert.equal(await h.t.ctx.stores.userAttributeProfiles.count(h.t.tenant.id), 0);
    });
  });
}
