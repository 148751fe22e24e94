/**
 * The build step of Actions: dependencies installed by npm
 * (`--ignore-scripts`) from a local registry stand-in named by
 * GATEHOUSE_ACTIONS_REGISTRY into a folder under the data directory, never
 * Gatehouse's node_modules; the draft goes pending → building → built, or
 * failed with npm's reason; the build is a job of the durable queue (a job a
 * stopped process left is taken up once its lease runs out); `deploy: true`
 * deploys once built; the runtime's view gives the folder to require from.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { JobRunner } from '../../../src/domain/jobs/runner.js';
import { isoAt } from '../../../src/platform/clock.js';
import { createTestApp, withClockAdvanced, type TestApp } from '../../helpers/app.js';
import { LocalRegistry } from '../../helpers/npm-registry.js';
import { ROOT } from '../../helpers/server-process.js';

describe('Actions: the dependencies build step', () => {
  let t: TestApp;
  let registry: LocalRegistry;
  const api = (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });
  const json = <T = any>(res: { json(): unknown }) => res.json() as T;

  before(async () => {
    registry = new LocalRegistry();
    await registry.up();
    registry.publish({ name: 'gh-tiny-greeting', version: '1.0.0', files: { 'index.js': 'exports.greet = (who) => `hello ${who}`;' } });
    registry.publish({ name: 'gh-tiny-greeting', version: '2.0.0', files: { 'index.js': 'exports.greet = (who) => `hi ${who}`;' } });
    registry.publish({
      name: 'gh-install-script',
      version: '1.0.0',
      files: { 'index.js': 'module.exports = 1;' },
      manifest: { scripts: { postinstall: 'node -e "require(\'fs\').writeFileSync(\'SCRIPT_RAN\', \'yes\')"' } },
    });
    t = await createTestApp({ env: { GATEHOUSE_ACTIONS_REGISTRY: registry.url } });
  });
  after(async () => {
    await t?.close();
    await registry?.down();
  });

  it('installs the pinned dependencies into a folder of the data directory; the runtime requires them from there', async () => {
    const created = json(await api('POST', '/api/v2/actions/actions', {
      name: 'greets',
      supported_triggers: [{ id: 'post-login' }],
      code: 'const { greet } = require("gh-tiny-greeting"); exports.onExecutePostLogin = async () => greet("x");',
      dependencies: [{ name: 'gh-tiny-greeting', version: '1.0.0' }, { name: 'gh-install-script', version: '1.0.0' }],
    }));
    assert.equal(created.status, 'pending');
    assert.equal((await api('POST', `/api/v2/actions/actions/${created.id}/deploy`)).statusCode, 400, 'not built yet');

    assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
    const built = json(await api('GET', `/api/v2/actions/actions/${created.id}`));
    assert.equal(built.status, 'built', JSON.stringify(built));
    assert.ok(registry.requests.includes('/gh-tiny-greeting'), 'installed from the configured registry');

    assert.equal((await api('POST', `/api/v2/actions/actions/${created.id}/deploy`)).statusCode, 200);
    await api('PATCH', '/api/v2/actions/triggers/post-login/bindings', { bindings: [{ ref: { type: 'action_name', value: 'greets' } }] });
    const [bound] = await t.ctx.deployedActions.boundActions(t.tenant.id, 'post-login');
    assert.ok(bound?.modulesDir);
    assert.ok(bound.modulesDir.startsWith(path.resolve(t.dataDir)), 'under the data directory');
    assert.deepEqual(bound.dependencies, [{ name: 'gh-tiny-greeting', version: '1.0.0' }, { name: 'gh-install-script', version: '1.0.0' }]);
    const requireHere = createRequire(path.join(bound.modulesDir, 'action.js'));
    assert.equal((requireHere('gh-tiny-greeting') as { greet(w: string): string }).greet('you'), 'hello you');
    assert.ok(!fs.existsSync(path.join(bound.modulesDir, 'node_modules/gh-install-script/SCRIPT_RAN')), 'install scripts never run');
    assert.ok(!fs.existsSync(path.join(ROOT, 'node_modules/gh-tiny-greeting')), "nothing in Gatehouse's own node_modules");
  });

  it('another version of a dependency is another folder; the deployed version keeps its own', async () => {
    const action = json(await api('GET', '/api/v2/actions/actions?actionName=greets')).actions[0];
    const patched = json(await api('PATCH', `/api/v2/actions/actions/${action.id}`, { dependencies: [{ name: 'gh-tiny-greeting', version: '2.0.0' }] }));
    assert.equal(patched.status, 'pending');
    await new JobRunner(t.ctx).runOnce();
    await api('POST', `/api/v2/actions/actions/${action.id}/deploy`);
    const [bound] = await t.ctx.deployedActions.boundActions(t.tenant.id, 'post-login');
    assert.equal((createRequire(path.join(bound!.modulesDir!, 'a.js'))('gh-tiny-greeting') as { greet(w: string): string }).greet('you'), 'hi you');
    // Back to 1.0.0: that build is on disk, so the draft is built at once.
    const again = json(await api('PATCH', `/api/v2/actions/actions/${action.id}`, { dependencies: [{ name: 'gh-tiny-greeting', version: '1.0.0' }, { name: 'gh-install-script', version: '1.0.0' }] }));
    assert.equal(again.status, 'built');
  });

  it('fails with npm\'s reason for a package the registry does not have; the deployed version stays; the build is no Management API job', async () => {
    const action = json(await api('GET', '/api/v2/actions/actions?actionName=greets')).actions[0];
    const before = json(await api('GET', `/api/v2/actions/actions/${action.id}`)).deployed_version.id;
    await api('PATCH', `/api/v2/actions/actions/${action.id}`, { dependencies: [{ name: 'gh-not-published', version: '1.0.0' }] });
    const job = await t.ctx.database.db.selectFrom('jobs').select(['id', 'status']).where('type', '=', 'action_build').where('status', '=', 'pending').executeTakeFirstOrThrow();
    await new JobRunner(t.ctx).runOnce();
    const failed = json(await api('GET', `/api/v2/actions/actions/${action.id}`));
    assert.equal(failed.status, 'failed');
    assert.equal(failed.deployed_version.id, before, 'a failed build leaves the deployed version alone');
    assert.equal(failed.deployed_version.status, 'built');
    const row = await t.ctx.stores.actions.get(t.tenant.id, action.id);
    assert.match(row!.build_errors![0]!.msg, /404|E404|gh-not-published/);
    const deploy = await api('POST', `/api/v2/actions/actions/${action.id}/deploy`);
    assert.equal(deploy.statusCode, 400);
    assert.equal(json(deploy).message, "A draft must be in the 'built' state before it can be deployed.");
    assert.equal((await api('GET', `/api/v2/jobs/${job.id}`)).statusCode, 404);
  });

  it('a build left by a stopped process is taken up once its lease runs out; deploy: true deploys once built', async () => {
    registry.publish({ name: 'gh-late', version: '1.0.0', files: { 'index.js': 'module.exports = "late";' } });
    const created = json(await api('POST', '/api/v2/actions/actions', {
      name: 'late',
      supported_triggers: [{ id: 'credentials-exchange' }],
      code: 'exports.onExecuteCredentialsExchange = async () => {};',
      dependencies: [{ name: 'gh-late', version: '1.0.0' }],
      deploy: true,
    }));
    assert.equal(created.status, 'pending');
    assert.equal(created.deployed_version, undefined);
    // A process claims the job, then stops before building.
    const now = t.ctx.now();
    const claimed = await t.ctx.stores.jobs.claim('stopped-process', isoAt(now), isoAt(now + t.config.jobs.leaseMs));
    assert.equal(claimed?.type, 'action_build');
    assert.equal(await new JobRunner(t.ctx).runOnce(), 0, 'held by the stopped process');
    await withClockAdvanced(t, t.config.jobs.leaseMs + 1000, async () => {
      assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
    });
    const read = json(await api('GET', `/api/v2/actions/actions/${created.id}`));
    assert.equal(read.status, 'built');
    assert.equal(read.deployed_version?.number, 1, 'deployed once built');
    assert.equal(read.all_changes_deployed, true);
  });
});
