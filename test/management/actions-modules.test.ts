/**
 * Actions modules in the Management API (/api/v2/actions/modules), on the
 * real app, the real database (SQLite and PostgreSQL) and the real sandbox:
 * every operation of the service's document (list, create, get, update,
 * delete, the actions using a module, rollback, versions list, publish and
 * get), secrets written and never read back nor stored in clear, publishing
 * that freezes the code, rollback into the draft, actions naming module
 * versions (`modules`), the runtime's view of them, an action's draft run by
 * the test endpoint requiring the module as `actions:<name>`, and the
 * refusals: 400 (bad bodies, unknown modules and versions, npm's failure),
 * 404, 409 (a taken name, nothing to publish, rollback to the draft), 412
 * (delete while in use), 403 (scopes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { LocalRegistry } from '../helpers/npm-registry.js';
import { sealedValueCensus } from '../../src/domain/encryption/rekey.js';
import { JobRunner } from '../../src/domain/jobs/runner.js';

const MODULE_V1 = 'exports.tag = (who) => `v1:${who}:${actions.secrets.SALT}`;';
const MODULE_V2 = 'exports.tag = (who) => `v2:${who}:${actions.secrets.SALT}`;';
const ACTION = `const helper = require('actions:tagger');
exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim('https://example.com/tag', helper.tag(event.user.user_id)); };`;

for (const postgres of [false, true]) {
  describe(`/api/v2/actions/modules (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
    let t: TestApp;
    let registry: LocalRegistry;
    const api = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token !== undefined && { token }) });
    const json = <T = any>(res: { json(): unknown }) => res.json() as T;
    let moduleId = '';
    let v1 = '';
    let v2 = '';
    let actionId = '';

    before(async () => {
      registry = new LocalRegistry();
      await registry.up();
      t = await createTestApp({ postgres, env: { GATEHOUSE_ACTIONS_REGISTRY: registry.url, GATEHOUSE_ENCRYPTION_KEYS_REFRESH: '0.05' } });
    });
    after(async () => {
      await t?.close();
      await registry?.down();
    });

    it('creates a module (201): its draft, secrets by name only and sealed at rest, nothing published yet', async () => {
      const created = await api('POST', '/api/v2/actions/modules', { name: 'tagger', code: MODULE_V1, secrets: [{ name: 'SALT', value: 'module-secret-salt' }], api_version: '1' });
      assert.equal(created.statusCode, 201, created.body);
      const module = json(created);
      moduleId = module.id;
      assert.match(module.id, /^[0-9a-f-]{36}$/);
      assert.equal(module.name, 'tagger');
      assert.equal(module.code, MODULE_V1);
      assert.deepEqual(module.dependencies, []);
      assert.deepEqual(Object.keys(module.secrets[0]).sort(), ['name', 'updated_at']);
      assert.equal(module.secrets[0].name, 'SALT');
      assert.equal(module.all_changes_published, false);
      assert.equal(module.actions_using_module_total, 0);
      assert.equal(module.latest_version_number, undefined);
      assert.equal(module.latest_version, undefined);
      assert.ok(!created.body.includes('module-secret-salt'));
      const rows = await sql<{ secrets: string }>`select secrets from action_modules where id = ${module.id}`.execute(t.ctx.database.db);
      assert.ok(!rows.rows[0]!.secrets.includes('module-secret-salt'), 'sealed at rest');

      const taken = await api('POST', '/api/v2/actions/modules', { name: 'tagger', code: '' });
      assert.equal(taken.statusCode, 409);
      assert.equal(json(taken).message, 'An action module with the name "tagger" already exists.');
    });

    it('publishes the draft as version 1 (200), freezing its code; nothing new to publish is 409', async () => {
      const published = await api('POST', `/api/v2/actions/modules/${moduleId}/versions`);
      assert.equal(published.statusCode, 200, published.body);
      const version = json(published);
      v1 = version.id;
      assert.equal(version.version_number, 1);
      assert.equal(version.module_id, moduleId);
      assert.equal(version.code, MODULE_V1);
      assert.deepEqual(version.secrets.map((s: { name: string }) => s.name), ['SALT']);
      assert.ok(!published.body.includes('module-secret-salt'));

      const again = await api('POST', `/api/v2/actions/modules/${moduleId}/versions`);
      assert.equal(again.statusCode, 409);
      assert.match(json(again).message, /^No draft version is available to publish/);

      const read = json(await api('GET', `/api/v2/actions/modules/${moduleId}`));
      assert.equal(read.all_changes_published, true);
      assert.equal(read.latest_version_number, 1);
      assert.equal(read.latest_version.id, v1);
      assert.equal(read.latest_version.code, MODULE_V1);

      // A secret by name only (what auth0-deploy-cli sends back after an export) keeps its value: nothing to publish.
      const named = await api('PATCH', `/api/v2/actions/modules/${moduleId}`, { secrets: [{ name: 'SALT' }] });
      assert.equal(named.statusCode, 200, named.body);
      assert.equal(json(named).all_changes_published, true);
      const unchanged = await api('POST', `/api/v2/actions/modules/${moduleId}/versions`);
      assert.equal(unchanged.statusCode, 200, unchanged.body);
      assert.equal(json(unchanged).id, v1, 'a draft that holds the latest version publishes no new one');
      assert.equal((await api('POST', `/api/v2/actions/modules/${moduleId}/versions`)).statusCode, 409, 'and no draft is left to publish');

      // PATCH changes the draft only: version 1 keeps its code.
      const patched = await api('PATCH', `/api/v2/actions/modules/${moduleId}`, { code: MODULE_V2 });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal(json(patched).code, MODULE_V2);
      assert.equal(json(patched).all_changes_published, false);
      assert.deepEqual(json(patched).secrets.map((s: { name: string }) => s.name), ['SALT'], 'secrets untouched when absent');
      assert.equal(json(await api('GET', `/api/v2/actions/modules/${moduleId}/versions/${v1}`)).code, MODULE_V1);

      const second = json(await api('POST', `/api/v2/actions/modules/${moduleId}/versions`));
      v2 = second.id;
      assert.equal(second.version_number, 2);
      assert.equal(second.code, MODULE_V2);
    });

    it('lists modules (all without paging, a page with it) and versions newest first; gets a version; 404s', async () => {
      await api('POST', '/api/v2/actions/modules', { name: 'other', code: 'exports.x = 1;' });
      const all = json(await api('GET', '/api/v2/actions/modules'));
      assert.deepEqual(all.modules.map((m: { name: string }) => m.name), ['tagger', 'other']);
      assert.equal(all.total, 2);
      assert.equal(all.modules[0].latest_version_number, 2);
      assert.equal(all.modules[0].latest_version, undefined, 'list items carry the number only, as the document\'s ActionModuleListItem');
      const page = json(await api('GET', '/api/v2/actions/modules?page=1&per_page=1'));
      assert.deepEqual(page.modules.map((m: { name: string }) => m.name), ['other']);
      assert.deepEqual([page.total, page.page, page.per_page], [2, 1, 1]);

      const versions = json(await api('GET', `/api/v2/actions/modules/${moduleId}/versions`));
      assert.deepEqual(versions.versions.map((v: { version_number: number }) => v.version_number), [2, 1]);
      assert.equal(versions.total, 2);
      assert.deepEqual(json(await api('GET', `/api/v2/actions/modules/${moduleId}/versions?per_page=1&page=1`)).versions.map((v: { id: string }) => v.id), [v1]);
      assert.equal(json(await api('GET', `/api/v2/actions/modules/${moduleId}/versions/${v2}`)).version_number, 2);

      const missing = await api('GET', '/api/v2/actions/modules/00000000-0000-4000-8000-000000000000');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(json(missing), { statusCode: 404, error: 'Not Found', message: 'The action module does not exist.' });
      assert.equal((await api('GET', `/api/v2/actions/modules/${moduleId}/versions/nope`)).statusCode, 404);
      assert.equal((await api('GET', '/api/v2/actions/modules/nope/versions')).statusCode, 404);
      assert.equal((await api('GET', '/api/v2/actions/modules/nope/actions')).statusCode, 404);
      assert.equal((await api('PATCH', '/api/v2/actions/modules/nope', { code: 'x' })).statusCode, 404);
      assert.equal((await api('POST', '/api/v2/actions/modules/nope/versions')).statusCode, 404);
      assert.equal((await api('DELETE', '/api/v2/actions/modules/nope')).statusCode, 404);
      assert.equal((await api('POST', '/api/v2/actions/modules/nope/rollback', { module_version_id: v1 })).statusCode, 404);
    });

    it('rolls the draft back to an earlier version (200); to the draft itself is 409, to an unknown version 404', async () => {
      const rolled = await api('POST', `/api/v2/actions/modules/${moduleId}/rollback`, { module_version_id: v1 });
      assert.equal(rolled.statusCode, 200, rolled.body);
      assert.equal(json(rolled).code, MODULE_V1);
      assert.equal(json(rolled).latest_version_number, 2, 'rollback publishes nothing');
      assert.equal(json(rolled).all_changes_published, false);
      const same = await api('POST', `/api/v2/actions/modules/${moduleId}/rollback`, { module_version_id: v1 });
      assert.equal(same.statusCode, 409);
      assert.equal(json(same).message, 'The specified version is already the current draft version.');
      assert.equal((await api('POST', `/api/v2/actions/modules/${moduleId}/rollback`, { module_version_id: '00000000-0000-4000-8000-000000000000' })).statusCode, 404);
      assert.equal((await api('POST', `/api/v2/actions/modules/${moduleId}/rollback`, {})).statusCode, 400);
      // Back to version 2's code for what follows.
      assert.equal((await api('POST', `/api/v2/actions/modules/${moduleId}/rollback`, { module_version_id: v2 })).statusCode, 200);
    });

    it('an action names module versions; its deployed version is listed by the module; the runtime and the test endpoint reach the module', async () => {
      const created = await api('POST', '/api/v2/actions/actions', {
        name: 'uses-tagger',
        supported_triggers: [{ id: 'post-login', version: 'v3' }],
        code: ACTION,
        modules: [{ module_name: 'tagger', module_version_number: 1 }],
        deploy: true,
      });
      assert.equal(created.statusCode, 201, created.body);
      const action = json(created);
      actionId = action.id;
      assert.deepEqual(action.modules, [{ module_id: moduleId, module_name: 'tagger', module_version_id: v1, module_version_number: 1 }]);
      assert.deepEqual(action.deployed_version.modules, action.modules);

      const using = json(await api('GET', `/api/v2/actions/modules/${moduleId}/actions`));
      assert.deepEqual(using.actions, [{ action_id: actionId, action_name: 'uses-tagger', module_version_id: v1, module_version_number: 1, supported_triggers: [{ id: 'post-login', version: 'v3' }] }]);
      assert.equal(using.total, 1);
      assert.equal(json(await api('GET', `/api/v2/actions/modules/${moduleId}`)).actions_using_module_total, 1);

      const bound = await t.ctx.deployedActions.deployedAction(t.tenant.id, actionId);
      assert.deepEqual(bound?.modules.map((m) => [m.name, m.versionId, m.code, m.secrets, m.modulesDir]), [['tagger', v1, MODULE_V1, { SALT: 'module-secret-salt' }, null]]);

      const first = json(await api('POST', `/api/v2/actions/actions/${actionId}/test`, { payload: { event: { user: { user_id: 'auth0|u1' } } } }));
      assert.deepEqual(first.payload.commands, [{ method: 'idToken.setCustomClaim', args: ['https://example.com/tag', 'v1:auth0|u1:module-secret-salt'] }], JSON.stringify(first));

      // The draft moves to version 2 (by id; no version: the latest); the deployed version keeps version 1.
      const patched = json(await api('PATCH', `/api/v2/actions/actions/${actionId}`, { modules: [{ module_id: moduleId }] }));
      assert.deepEqual(patched.modules, [{ module_id: moduleId, module_name: 'tagger', module_version_id: v2, module_version_number: 2 }]);
      assert.equal(patched.all_changes_deployed, false);
      assert.equal(patched.deployed_version.modules[0].module_version_id, v1);

      // The test endpoint runs the draft in the sandbox: the same code, now compiled with version 2 of the module, with the module's secret.
      const tested = await api('POST', `/api/v2/actions/actions/${actionId}/test`, { payload: { event: { user: { user_id: 'auth0|u1' } } } });
      assert.equal(tested.statusCode, 200, tested.body);
      assert.equal(json(tested).payload.error, undefined, tested.body);
      assert.deepEqual(json(tested).payload.commands, [{ method: 'idToken.setCustomClaim', args: ['https://example.com/tag', 'v2:auth0|u1:module-secret-salt'] }]);
      assert.ok(!JSON.stringify(json(await api('GET', `/api/v2/actions/actions/${actionId}`))).includes('module-secret-salt'));

      // An action requiring a module it does not name gets Node's "Cannot find module".
      const stray = json(await api('POST', '/api/v2/actions/actions', { name: 'stray', supported_triggers: [{ id: 'post-login' }], code: "require('actions:other'); exports.onExecutePostLogin = async () => {};" }));
      assert.equal(stray.modules, undefined, 'no `modules` member without modules, as real traffic shows actions');
      const strayRun = json(await api('POST', `/api/v2/actions/actions/${stray.id}/test`, { payload: { event: {} } }));
      assert.match(strayRun.payload.error.message, /Cannot find module 'actions:other'/);
      assert.equal((await api('DELETE', `/api/v2/actions/actions/${stray.id}`)).statusCode, 204);
    });

    it('refuses module references that name nothing: unknown module, unpublished module, unknown version, twice', async () => {
      const base = { name: 'bad-refs', supported_triggers: [{ id: 'post-login' }], code: '' };
      const cases: [unknown, RegExp][] = [
        [[{ module_name: 'nothing' }], /the module named "nothing" does not exist/],
        [[{ module_id: 'nope' }], /the module "nope" does not exist/],
        [[{ module_name: 'other' }], /has no published version/],
        [[{ module_name: 'tagger', module_version_number: 9 }], /has no such version/],
        [[{ module_name: 'tagger', module_version_id: 'nope' }], /has no such version/],
        [[{ module_name: 'tagger' }, { module_id: moduleId }], /named twice/],
        [[{}], /module_id or module_name/],
        [[{ module_name: 'tagger', extra: 1 }], /./],
      ];
      for (const [modules, message] of cases) {
        const res = await api('POST', '/api/v2/actions/actions', { ...base, modules });
        assert.equal(res.statusCode, 400, `${JSON.stringify(modules)}: ${res.body}`);
        assert.match(json(res).message, message);
      }
      assert.equal(json(await api('GET', '/api/v2/actions/actions?actionName=bad-refs')).actions.length, 0, 'nothing was created');
    });

    it('refuses bad module bodies with 400 in the Management API shape, changing nothing', async () => {
      const bad: unknown[] = [
        {},
        { name: 'no-code' },
        { name: 'x', code: 'x', extra: true },
        { name: '', code: 'x' },
        { name: 'x', code: 'x'.repeat(65537) },
        { name: 'x', code: 'x', secrets: [{ name: 'S', value: 1 }] },
        { name: 'x', code: 'x', secrets: [{ name: 'bad name', value: 'v' }] },
        { name: 'x', code: 'x', dependencies: [{ name: 'evil', version: 'https://evil.example.com/x.tgz' }] },
        { name: 'x', code: 'x', dependencies: [{ name: 'a' }] },
        { name: 'x', code: 'x', publish: 'yes' },
      ];
      for (const body of bad) {
        const res = await api('POST', '/api/v2/actions/modules', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.body}`);
        assert.equal(json(res).statusCode, 400);
        assert.equal(typeof json(res).message, 'string');
      }
      assert.equal((await api('PATCH', `/api/v2/actions/modules/${moduleId}`, { name: 'renamed' })).statusCode, 400, 'the name is not changeable');
      assert.equal((await api('GET', '/api/v2/actions/modules?per_page=1000')).statusCode, 400);
      assert.equal(json(await api('GET', '/api/v2/actions/modules')).total, 2);
    });

    it('installs a module\'s dependencies by the build step before publishing; npm\'s failure is a 400 that publishes nothing', async () => {
      registry.publish({ name: 'gh-module-dep', version: '1.0.0', files: { 'index.js': 'exports.shout = (s) => s.toUpperCase() + "!";' } });
      const created = json(await api('POST', '/api/v2/actions/modules', {
        name: 'shouter',
        code: 'const { shout } = require("gh-module-dep"); exports.shout = shout;',
        dependencies: [{ name: 'gh-module-dep', version: '1.0.0' }],
        publish: true,
      }));
      assert.equal(created.latest_version_number, 1, JSON.stringify(created));
      assert.deepEqual(created.latest_version.dependencies, [{ name: 'gh-module-dep', version: '1.0.0' }]);
      const action = json(await api('POST', '/api/v2/actions/actions', {
        name: 'shouts',
        supported_triggers: [{ id: 'post-login' }],
        code: "exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim('https://example.com/s', require('actions:shouter').shout('hey')); };",
        modules: [{ module_name: 'shouter' }],
      }));
      const run = json(await api('POST', `/api/v2/actions/actions/${action.id}/test`, { payload: { event: {} } }));
      assert.deepEqual(run.payload.commands, [{ method: 'idToken.setCustomClaim', args: ['https://example.com/s', 'HEY!'] }], JSON.stringify(run));

      // Two publishes at once: one version, and a 409 for the other (never a 500 or two of the same number).
      await api('PATCH', `/api/v2/actions/modules/${created.id}`, { code: 'const { shout } = require("gh-module-dep"); exports.shout = (s) => shout(s) + "?";' });
      const both = await Promise.all([api('POST', `/api/v2/actions/modules/${created.id}/versions`), api('POST', `/api/v2/actions/modules/${created.id}/versions`)]);
      assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 409], both.map((r) => r.body).join('\n'));
      assert.deepEqual(json(await api('GET', `/api/v2/actions/modules/${created.id}/versions`)).versions.map((v: { version_number: number }) => v.version_number), [2, 1]);

      const broken = json(await api('POST', '/api/v2/actions/modules', { name: 'broken', code: '', dependencies: [{ name: 'gh-not-in-registry', version: '1.0.0' }] }));
      const refused = await api('POST', `/api/v2/actions/modules/${broken.id}/versions`);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(json(refused).message, /^The module's dependencies could not be installed: .+/);
      assert.equal(json(await api('GET', `/api/v2/actions/modules/${broken.id}/versions`)).versions.length, 0);
      assert.equal((await api('DELETE', `/api/v2/actions/modules/${broken.id}`)).statusCode, 204);
      assert.equal((await api('DELETE', `/api/v2/actions/actions/${action.id}`)).statusCode, 204);
      assert.equal((await api('DELETE', `/api/v2/actions/modules/${created.id}`)).statusCode, 204);
    });

    it('at 50 versions a publish deletes the oldest version no action uses (never one in use)', async () => {
      const module = json(await api('POST', '/api/v2/actions/modules', { name: 'many', code: 'exports.n = 1;', publish: true }));
      const first = json(await api('GET', `/api/v2/actions/modules/${module.id}`)).latest_version.id;
      const user = json(await api('POST', '/api/v2/actions/actions', { name: 'pins-many', supported_triggers: [{ id: 'post-login' }], code: '', modules: [{ module_id: module.id, module_version_id: first }], deploy: true }));
      for (let n = 2; n <= 51; n++) {
        assert.equal((await api('PATCH', `/api/v2/actions/modules/${module.id}`, { code: `exports.n = ${n};` })).statusCode, 200);
        const published = await api('POST', `/api/v2/actions/modules/${module.id}/versions`);
        assert.equal(published.statusCode, 200, `${n}: ${published.body}`);
        assert.equal(json(published).version_number, n);
      }
      const versions = json(await api('GET', `/api/v2/actions/modules/${module.id}/versions?per_page=100`));
      assert.equal(versions.total, 50);
      const numbers = versions.versions.map((v: { version_number: number }) => v.version_number);
      assert.ok(numbers.includes(1), 'version 1 is in use by an action: kept');
      assert.ok(!numbers.includes(2), 'version 2, the oldest unused, made room');
      assert.equal((await api('DELETE', `/api/v2/actions/actions/${user.id}`)).statusCode, 204);
      assert.equal((await api('DELETE', `/api/v2/actions/modules/${module.id}`)).statusCode, 204);
    });

    it('checks scopes: reading needs read:actions, writing create:/update:/delete:actions', async () => {
      const readOnly = await t.managementToken('read:actions');
      assert.equal((await api('GET', '/api/v2/actions/modules', undefined, readOnly)).statusCode, 200);
      assert.equal((await api('GET', `/api/v2/actions/modules/${moduleId}/versions/${v1}`, undefined, readOnly)).statusCode, 200);
      for (const [method, url, body] of [
        ['POST', '/api/v2/actions/modules', { name: 'y', code: '' }],
        ['PATCH', `/api/v2/actions/modules/${moduleId}`, { code: '' }],
        ['DELETE', `/api/v2/actions/modules/${moduleId}`, undefined],
        ['POST', `/api/v2/actions/modules/${moduleId}/versions`, undefined],
        ['POST', `/api/v2/actions/modules/${moduleId}/rollback`, { module_version_id: v1 }],
      ] as const) {
        const res = await api(method, url, body, readOnly);
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.equal(json(res).errorCode, 'insufficient_scope');
      }
      const other = await t.managementToken('read:clients');
      for (const url of ['/api/v2/actions/modules', `/api/v2/actions/modules/${moduleId}`, `/api/v2/actions/modules/${moduleId}/actions`, `/api/v2/actions/modules/${moduleId}/versions`]) {
        assert.equal((await api('GET', url, undefined, other)).statusCode, 403, url);
      }
      assert.equal(json(await api('GET', `/api/v2/actions/modules/${moduleId}`)).code, MODULE_V2, 'nothing changed');
    });

    it('a rekey reseals the module secrets (draft and versions) under the new key; the runtime still opens them', async () => {
      const sealed = async () => {
        const drafts = await sql<{ secrets: string }>`select secrets from action_modules where id = ${moduleId}`.execute(t.ctx.database.db);
        const versions = await sql<{ secrets: string }>`select secrets from action_module_versions where module_id = ${moduleId} order by number`.execute(t.ctx.database.db);
        return [...drafts.rows, ...versions.rows].map((r) => (JSON.parse(r.secrets) as { value_enc: string }[])[0]!.value_enc);
      };
      const before = await sealed();
      assert.equal((await api('POST', '/api/v2/keys/encryption/rekey')).statusCode, 204);
      for (let i = 0; i < 5 && (await new JobRunner(t.ctx).runOnce()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      const job = await t.ctx.database.db.selectFrom('jobs').select('status').where('type', '=', 'encryption_rekey').executeTakeFirstOrThrow();
      assert.equal(job.status, 'completed');
      const resealed = await sealed();
      assert.equal(resealed.length, 3, 'the draft and two versions');
      resealed.forEach((value, i) => assert.notEqual(value, before[i], `secret ${i} is sealed anew`));
      const census = await sealedValueCensus(t.ctx, t.tenant.id);
      assert.equal(census.unreadable, 0);
      assert.equal(census.byKid[t.ctx.box.rootKid] ?? 0, 0, JSON.stringify(census));
      const bound = await t.ctx.deployedActions.deployedAction(t.tenant.id, actionId);
      assert.deepEqual(bound?.modules.map((m) => m.secrets), [{ SALT: 'module-secret-salt' }]);
      const tested = json(await api('POST', `/api/v2/actions/actions/${actionId}/test`, { payload: { event: { user: { user_id: 'u2' } } } }));
      assert.deepEqual(tested.payload.commands[0].args, ['https://example.com/tag', 'v2:u2:module-secret-salt']);
    });

    it('refuses to delete a module an action uses (412), and deletes it once none does (204)', async () => {
      const refused = await api('DELETE', `/api/v2/actions/modules/${moduleId}`);
      assert.equal(refused.statusCode, 412);
      assert.deepEqual(json(refused), { statusCode: 412, error: 'Precondition Failed', message: 'The Actions Module cannot be deleted because it is in use by one or more actions: "uses-tagger".' });
      assert.equal((await api('GET', `/api/v2/actions/modules/${moduleId}`)).statusCode, 200);

      assert.equal((await api('DELETE', `/api/v2/actions/actions/${actionId}`)).statusCode, 204);
      const deleted = await api('DELETE', `/api/v2/actions/modules/${moduleId}`);
      assert.equal(deleted.statusCode, 204, deleted.body);
      assert.equal((await api('GET', `/api/v2/actions/modules/${moduleId}`)).statusCode, 404);
      assert.equal((await api('GET', `/api/v2/actions/modules/${moduleId}/versions/${v1}`)).statusCode, 404);
      const left = await sql<{ n: number }>`select count(*) as n from action_module_versions where module_id = ${moduleId}`.execute(t.ctx.database.db);
      assert.equal(Number(left.rows[0]!.n), 0, 'its versions went with it');
    });
  });
}
