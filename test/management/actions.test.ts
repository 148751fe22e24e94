/**
 * Actions in the Management API: drafts built at once without dependencies,
 * deploy (200 with the new version), versions and rollback, bindings replaced
 * as a whole with new ids, the triggers list, executions, secrets written
 * and never read back (nor in the database in clear), the deployed actions
 * the runtime reads, and the refusals (deploy before the build ended, a
 * failed build, bad input in the Management API's shape, scopes).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { EXECUTION_RETENTION_MS, newExecution } from '../../src/domain/actions/executions.js';
import { isoAt } from '../../src/platform/clock.js';

const POST_LOGIN = 'exports.onExecutePostLogin = async (event, api) => { api.idToken.setCustomClaim("https://example.com/c", event.secrets.KEY); };';

for (const postgres of [false, true]) {
  describe(`/api/v2/actions (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
    let t: TestApp;
    const api = (method: string, url: string, body?: unknown, token?: string) => t.management(method, url, { ...(body !== undefined && { body }), ...(token !== undefined && { token }) });
    const json = <T = any>(res: { json(): unknown }) => res.json() as T;

    before(async () => {
      t = await createTestApp({ postgres });
    });
    after(async () => t?.close());

    it('creates a draft built at once, deploys it (200, the new version), and reads it deployed', async () => {
      const created = await api('POST', '/api/v2/actions/actions', {
        name: 'add-claim',
        supported_triggers: [{ id: 'post-login', version: 'v3' }],
        code: POST_LOGIN,
        secrets: [{ name: 'KEY', value: 'the-secret-value' }],
      });
      assert.equal(created.statusCode, 201, created.body);
      const action = json(created);
      assert.match(action.id, /^[0-9a-f-]{36}$/);
      assert.equal(action.status, 'built');
      assert.equal(action.runtime, 'node22');
      assert.equal(action.all_changes_deployed, false);
      assert.deepEqual(action.supported_triggers, [{ id: 'post-login', version: 'v3' }]);
      assert.deepEqual(Object.keys(action.secrets[0]).sort(), ['name', 'updated_at']);
      assert.match(action.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/, 'nanoseconds, as the service writes them');
      assert.equal(action.deployed_version, undefined);
      assert.ok(!created.body.includes('the-secret-value'));

      const deployed = await api('POST', `/api/v2/actions/actions/${action.id}/deploy`);
      assert.equal(deployed.statusCode, 200, deployed.body);
      const version = json(deployed);
      assert.equal(version.number, 1);
      assert.equal(version.status, 'built');
      assert.equal(version.deployed, false, 'as real traffic answers the deploy');
      assert.equal(version.action.id, action.id);

      const read = json(await api('GET', `/api/v2/actions/actions/${action.id}`));
      assert.equal(read.all_changes_deployed, true);
      assert.equal(read.deployed_version.id, version.id);
      assert.equal(read.deployed_version.deployed, true);
      assert.equal(read.deployed_version.code, POST_LOGIN);

      // The secret is sealed at rest.
      const rows = await sql<{ secrets: string }>`select secrets from actions where id = ${action.id}`.execute(t.ctx.database.db);
      assert.ok(!rows.rows[0]!.secrets.includes('the-secret-value'));
    });

    it('lists with filters, leaving out `total` and `page` when 0, and pages', async () => {
      const empty = json(await api('GET', '/api/v2/actions/actions?actionName=nothing-here&per_page=50'));
      assert.deepEqual(empty, { actions: [], per_page: 50 });
      await api('POST', '/api/v2/actions/actions', { name: 'cc-claim', supported_triggers: [{ id: 'credentials-exchange' }], code: 'exports.onExecuteCredentialsExchange = async () => {};' });
      const all = json(await api('GET', '/api/v2/actions/actions?page=0&per_page=100'));
      assert.equal(all.total, 2);
      assert.equal(all.page, undefined);
      assert.deepEqual(all.actions.map((a: { name: string }) => a.name), ['add-claim', 'cc-claim']);
      assert.equal(all.actions[1].supported_triggers[0].version, 'v2', 'the trigger\'s current version when none is given');
      assert.deepEqual(json(await api('GET', '/api/v2/actions/actions?triggerId=credentials-exchange')).actions.map((a: { name: string }) => a.name), ['cc-claim']);
      assert.deepEqual(json(await api('GET', '/api/v2/actions/actions?deployed=true')).actions.map((a: { name: string }) => a.name), ['add-claim']);
      assert.deepEqual(json(await api('GET', '/api/v2/actions/actions?deployed=false')).actions.map((a: { name: string }) => a.name), ['cc-claim']);
      assert.deepEqual(json(await api('GET', '/api/v2/actions/actions?installed=true')).actions, []);
      const second = json(await api('GET', '/api/v2/actions/actions?page=1&per_page=1'));
      assert.deepEqual({ total: second.total, page: second.page, names: second.actions.map((a: { name: string }) => a.name) }, { total: 2, page: 1, names: ['cc-claim'] });
    });

    it('PATCH changes the draft only; secrets are replaced as a whole, a name without value keeps its value', async () => {
      const action = json(await api('GET', '/api/v2/actions/actions?actionName=add-claim')).actions[0];
      const patched = json(await api('PATCH', `/api/v2/actions/actions/${action.id}`, { code: `${POST_LOGIN}\n// v2` }));
      assert.equal(patched.all_changes_deployed, false);
      assert.equal(patched.deployed_version.code, POST_LOGIN, 'the deployed version is untouched');
      const bound = await t.ctx.deployedActions.boundActions(t.tenant.id, 'post-login');
      assert.deepEqual(bound, [], 'nothing bound yet');

      const kept = json(await api('PATCH', `/api/v2/actions/actions/${action.id}`, { secrets: [{ name: 'KEY' }, { name: 'OTHER', value: 'o' }] }));
      assert.deepEqual(kept.secrets.map((s: { name: string }) => s.name), ['KEY', 'OTHER']);
      const cleared = json(await api('PATCH', `/api/v2/actions/actions/${action.id}`, { secrets: [] }));
      assert.deepEqual(cleared.secrets, []);
      const back = json(await api('PATCH', `/api/v2/actions/actions/${action.id}`, { secrets: [{ name: 'KEY', value: 'the-secret-value' }], code: POST_LOGIN }));
      assert.equal(back.all_changes_deployed, false, 'a secret set again is a new value to deploy');
    });

    it('binds deployed actions, replacing the list with new ids; the runtime reads them in order with their secrets opened', async () => {
      const action = json(await api('GET', '/api/v2/actions/actions?actionName=add-claim')).actions[0];
      await api('POST', `/api/v2/actions/actions/${action.id}/deploy`);
      const second = json(await api('POST', '/api/v2/actions/actions', { name: 'second', supported_triggers: [{ id: 'post-login' }], code: 'exports.onExecutePostLogin = async () => {};', deploy: true }));
      assert.ok(second.deployed_version, 'deploy: true deploys at creation');

      const first = await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', {
        bindings: [{ ref: { type: 'action_name', value: 'second' }, display_name: 'Second' }, { ref: { type: 'action_id', value: action.id } }],
      });
      assert.equal(first.statusCode, 200, first.body);
      const firstIds = json(first).bindings.map((b: { id: string }) => b.id);
      assert.deepEqual(json(first).bindings.map((b: any) => [b.display_name, b.action.name, b.trigger_id]), [['Second', 'second', 'post-login'], ['add-claim', 'add-claim', 'post-login']]);

      const again = json(await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', {
        bindings: [{ ref: { type: 'action_id', value: action.id } }, { ref: { type: 'binding_id', value: firstIds[0] } }],
      }));
      assert.deepEqual(again.bindings.map((b: any) => b.action.name), ['add-claim', 'second']);
      assert.ok(again.bindings.every((b: { id: string }) => !firstIds.includes(b.id)), 'new binding ids on each PATCH');

      const listed = json(await api('GET', '/api/v2/actions/triggers/post-login/bindings'));
      assert.equal(listed.total, 2);
      assert.equal(listed.per_page, 50);
      assert.deepEqual(listed.bindings.map((b: any) => b.action.name), ['add-claim', 'second']);
      assert.deepEqual(json(await api('GET', '/api/v2/actions/triggers/post-login/bindings?page=1&per_page=100')), { bindings: [], page: 1, per_page: 100 });

      const bound = await t.ctx.deployedActions.boundActions(t.tenant.id, 'post-login');
      assert.deepEqual(bound.map((b) => [b.name, b.code, b.secrets, b.modulesDir, b.runtime]), [
        ['add-claim', POST_LOGIN, { KEY: 'the-secret-value' }, null, 'node22'],
        ['second', 'exports.onExecutePostLogin = async () => {};', {}, null, 'node22'],
      ]);
      assert.equal(bound[0]!.versionId, json(await api('GET', `/api/v2/actions/actions/${action.id}`)).deployed_version.id);
      assert.deepEqual(await t.ctx.deployedActions.boundActions(t.tenant.id, 'credentials-exchange'), []);
      assert.equal((await t.ctx.deployedActions.deployedAction(t.tenant.id, action.id))?.secrets.KEY, 'the-secret-value');
      const cc = json(await api('GET', '/api/v2/actions/actions?actionName=cc-claim')).actions[0];
      assert.equal(await t.ctx.deployedActions.deployedAction(t.tenant.id, cc.id), undefined, 'never deployed');
      assert.ok(!JSON.stringify(listed).includes('the-secret-value'));
    });

    it('refuses bindings of an unknown, undeployed or other-trigger action, and more than 20', async () => {
      const cc = json(await api('GET', '/api/v2/actions/actions?actionName=cc-claim')).actions[0];
      const cases: [unknown, RegExp][] = [
        [{ bindings: [{ ref: { type: 'action_name', value: 'nope' } }] }, /no action matches action_name "nope"/],
        [{ bindings: [{ ref: { type: 'action_id', value: cc.id } }] }, /does not support the trigger "post-login"/],
      ];
      for (const [body, message] of cases) {
        const res = await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', body);
        assert.equal(res.statusCode, 400, res.body);
        assert.match(json(res).message, message);
      }
      const undeployed = await api('PATCH', '/api/v2/actions/triggers/credentials-exchange/bindings', { bindings: [{ ref: { type: 'action_id', value: cc.id } }] });
      assert.equal(undeployed.statusCode, 400);
      assert.match(json(undeployed).message, /must be deployed/);
      const many = await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', { bindings: Array.from({ length: 21 }, () => ({ ref: { value: 'second' } })) });
      assert.equal(many.statusCode, 400);
      // The list is unchanged by the refusals.
      assert.equal(json(await api('GET', '/api/v2/actions/triggers/post-login/bindings')).total, 2);
    });

    it('keeps versions and rolls back to an earlier one as a new version', async () => {
      const action = json(await api('GET', '/api/v2/actions/actions?actionName=add-claim')).actions[0];
      await api('PATCH', `/api/v2/actions/actions/${action.id}`, { code: 'exports.onExecutePostLogin = async () => { /* three */ };' });
      const v3 = json(await api('POST', `/api/v2/actions/actions/${action.id}/deploy`));
      assert.equal(v3.number, 3);
      const versions = json(await api('GET', `/api/v2/actions/actions/${action.id}/versions`));
      assert.equal(versions.total, 3);
      assert.deepEqual(versions.versions.map((v: { number: number; deployed: boolean }) => [v.number, v.deployed]), [[3, true], [2, false], [1, false]]);
      const v1 = versions.versions[2];
      assert.equal(json(await api('GET', `/api/v2/actions/actions/${action.id}/versions/${v1.id}`)).code, POST_LOGIN);

      const rollback = await api('POST', `/api/v2/actions/actions/${action.id}/versions/${v1.id}/deploy`, {});
      assert.equal(rollback.statusCode, 200, rollback.body);
      assert.equal(json(rollback).number, 4);
      const read = json(await api('GET', `/api/v2/actions/actions/${action.id}`));
      assert.equal(read.deployed_version.code, POST_LOGIN);
      assert.equal(read.code, 'exports.onExecutePostLogin = async () => { /* three */ };', 'the draft stays without update_draft');
      assert.equal(read.all_changes_deployed, false);
      const bound = await t.ctx.deployedActions.boundActions(t.tenant.id, 'post-login');
      assert.equal(bound[0]!.code, POST_LOGIN);

      await api('POST', `/api/v2/actions/actions/${action.id}/versions/${v3.id}/deploy`, { update_draft: true });
      const drafted = json(await api('GET', `/api/v2/actions/actions/${action.id}`));
      assert.equal(drafted.deployed_version.number, 5);
      assert.equal(drafted.all_changes_deployed, true);
      assert.equal((await api('GET', `/api/v2/actions/actions/${action.id}/versions/nope`)).statusCode, 404);
    });

    it('lists the triggers', async () => {
      const triggers = json(await api('GET', '/api/v2/actions/triggers')).triggers;
      const postLogin = triggers.find((tr: { id: string }) => tr.id === 'post-login');
      assert.equal(postLogin.version, 'v3');
      assert.equal(postLogin.status, 'CURRENT');
      assert.ok(triggers.some((tr: { id: string }) => tr.id === 'custom-token-exchange'));
    });

    it('answers an execution the runtime recorded, and 404 for one that does not exist or expired', async () => {
      const now = t.ctx.now();
      const execution = newExecution(t.tenant.id, 'post-login', now, 'final', [{ action_name: 'add-claim', started_at: isoAt(now), ended_at: isoAt(now + 5), logs: 'hello' }]);
      assert.match(execution.id, /^[A-Za-z0-9]{32}$/);
      await t.ctx.stores.actionExecutions.record(execution);
      const res = await api('GET', `/api/v2/actions/executions/${execution.id}`);
      assert.equal(res.statusCode, 200);
      assert.deepEqual(json(res).results, [{ action_name: 'add-claim', started_at: isoAt(now), ended_at: isoAt(now + 5) }], 'console output is not in the document\'s shape');
      assert.equal(json(res).status, 'final');
      await withClockAdvanced(t, EXECUTION_RETENTION_MS + 1000, async () => {
        assert.equal((await api('GET', `/api/v2/actions/executions/${execution.id}`)).statusCode, 404, 'kept ten days');
      });
      const missing = await api('GET', '/api/v2/actions/executions/exe_2');
      assert.deepEqual(json(missing), { statusCode: 404, error: 'Not Found', message: 'That execution does not exist.' });
    });

    it('refuses bad input in the Management API shape, and unknown actions with the service\'s 404', async () => {
      const bad: unknown[] = [
        { name: 'x' },
        { name: 'x', supported_triggers: [{ id: 'post-login' }, { id: 'post-login' }] },
        { name: 'x', supported_triggers: [{ id: 'nope' }] },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], runtime: 'node7' },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], dependencies: [{ name: 'evil', version: 'file:../../etc' }] },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], dependencies: [{ name: 'Bad Name', version: '1.0.0' }] },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], secrets: Array.from({ length: 31 }, (_, i) => ({ name: `S${i}`, value: 'v' })) },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], secrets: [{ name: 'S', value: 'v'.repeat(4097) }] },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], code: 'x'.repeat(100 * 1024 + 1) },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], modules: [{ module_name: 'm', module_version_number: 1 }] },
        { name: 'x', supported_triggers: [{ id: 'post-login' }], surprise: true },
        { name: 'x', supported_triggers: [{ id: 'post-login', version: 'v9' }] },
      ];
      for (const body of bad) {
        const res = await api('POST', '/api/v2/actions/actions', body);
        assert.equal(res.statusCode, 400, `${JSON.stringify(body).slice(0, 120)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        assert.equal(json(res).statusCode, 400);
        assert.equal(typeof json(res).message, 'string');
      }
      const unavailable = await api('POST', '/api/v2/actions/actions', { name: 'x', supported_triggers: [{ id: 'event-stream' }] });
      assert.equal(unavailable.statusCode, 400);
      assert.match(json(unavailable).message, /not available in Gatehouse/);
      const duplicate = await api('POST', '/api/v2/actions/actions', { name: 'second', supported_triggers: [{ id: 'post-login' }] });
      assert.equal(duplicate.statusCode, 409);
      const missing = await api('GET', '/api/v2/actions/actions/00000000-0000-4000-8000-000000000000');
      assert.deepEqual(json(missing), { statusCode: 404, error: 'Not Found', message: 'That action does not exist.' });
      assert.equal((await api('PATCH', '/api/v2/actions/actions/00000000-0000-4000-8000-000000000000', { code: '' })).statusCode, 404);
      assert.equal((await api('POST', '/api/v2/actions/actions/00000000-0000-4000-8000-000000000000/deploy')).statusCode, 404);
      assert.equal((await api('GET', '/api/v2/actions/actions?per_page=1000')).statusCode, 400);
      assert.equal((await api('GET', '/api/v2/actions/actions?include_totals=true')).statusCode, 400, 'as the service: no include_totals on this list');
    });

    it('refuses a deploy before the build ended with the service\'s 400 and message', async () => {
      const pending = json(await api('POST', '/api/v2/actions/actions', {
        name: 'with-deps',
        supported_triggers: [{ id: 'post-login' }],
        code: 'exports.onExecutePostLogin = async () => {};',
        dependencies: [{ name: 'gatehouse-test-never-built', version: '1.0.0' }],
      }));
      assert.equal(pending.status, 'pending');
      const res = await api('POST', `/api/v2/actions/actions/${pending.id}/deploy`);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(json(res), { statusCode: 400, error: 'Bad Request', message: "A draft must be in the 'built' state before it can be deployed." });
      const job = await sql<{ type: string; status: string }>`select type, status from jobs where type = 'action_build'`.execute(t.ctx.database.db);
      assert.deepEqual(job.rows, [{ type: 'action_build', status: 'pending' }], 'the build is queued as a job');
    });

    it('checks scopes: reading needs read:actions, writing create:/update:/delete:actions', async () => {
      const readOnly = await t.managementToken('read:actions');
      assert.equal((await api('GET', '/api/v2/actions/actions', undefined, readOnly)).statusCode, 200);
      assert.equal((await api('POST', '/api/v2/actions/actions', { name: 'y', supported_triggers: [{ id: 'post-login' }] }, readOnly)).statusCode, 403);
      assert.equal((await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', { bindings: [] }, readOnly)).statusCode, 403);
      const other = await t.managementToken('read:clients');
      assert.equal((await api('GET', '/api/v2/actions/triggers', undefined, other)).statusCode, 403);
    });

    it('deletes an unbound action; a bound one only with force=true, which removes its bindings', async () => {
      const second = json(await api('GET', '/api/v2/actions/actions?actionName=second')).actions[0];
      const refused = await api('DELETE', `/api/v2/actions/actions/${second.id}`);
      assert.equal(refused.statusCode, 400);
      assert.match(json(refused).message, /force=true/);
      assert.equal((await api('DELETE', `/api/v2/actions/actions/${second.id}?force=true`)).statusCode, 204);
      assert.deepEqual(json(await api('GET', '/api/v2/actions/triggers/post-login/bindings')).bindings.map((b: any) => b.action.name), ['add-claim']);
      const cc = json(await api('GET', '/api/v2/actions/actions?actionName=cc-claim')).actions[0];
      assert.equal((await api('DELETE', `/api/v2/actions/actions/${cc.id}`)).statusCode, 204);
      assert.equal((await api('DELETE', `/api/v2/actions/actions/${cc.id}`)).statusCode, 404);
      const clear = await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', { bindings: [] });
      assert.deepEqual(json(clear), { bindings: [] });
      assert.deepEqual(json(await api('GET', '/api/v2/actions/triggers/post-login/bindings')), { bindings: [], per_page: 50 });
    });
  });
}
