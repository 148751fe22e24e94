/**
 * Risk assessment, supplemental signals and the user operations driven by
 * the official `auth0` SDK (ManagementClient, v7) over real HTTPS against
 * the built server: `riskAssessments.settings` and `.settings.newDevice`
 * (get, update), `supplementalSignals` (get, patch),
 * `users.riskAssessments.clear` and
 * `users.multifactor.invalidateRememberBrowser`, with the refusals (400 bad
 * input, 404 unknown user, 403 without the scope).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp } from './support/https.js';
import { adminManagementClient, scopedManagementClient } from './support/sdk-client.js';
import { sdkError } from './support/sdk-error.js';

describe('auth0 SDK: risk assessments, supplemental signals, clearing assessors and remembered browsers', () => {
  let server: ServerProcess;
  let management: ManagementClient;
  let userId: string;

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    management = adminManagementClient(server);
    await management.connections.create({ name: 'people', strategy: 'auth0' });
    userId = (await management.users.create({ connection: 'people', email: 'risk@example.com', password: 'correct horse battery 9' })).user_id!;
  });
  after(() => cleanUp([server].filter(Boolean), [server?.dataDir].filter(Boolean) as string[]));

  it('reads and updates the risk assessment settings and the new-device assessor', async () => {
    assert.deepEqual(await management.riskAssessments.settings.get(), { enabled: false });
    assert.deepEqual(await management.riskAssessments.settings.update({ enabled: true }), { enabled: true });
    assert.deepEqual(await management.riskAssessments.settings.get(), { enabled: true });
    assert.deepEqual(await management.riskAssessments.settings.newDevice.get(), { remember_for: 30 });
    assert.deepEqual(await management.riskAssessments.settings.newDevice.update({ remember_for: 90 }), { remember_for: 90 });
    assert.deepEqual(await management.riskAssessments.settings.newDevice.get(), { remember_for: 90 });

    const tooLong = await sdkError(() => management.riskAssessments.settings.newDevice.update({ remember_for: 366 }));
    assert.equal(tooLong.statusCode, 400);
    assert.equal(tooLong.body.errorCode, 'invalid_body');
    assert.deepEqual(await management.riskAssessments.settings.newDevice.get(), { remember_for: 90 });
    const reader = await scopedManagementClient(server, 'read:attack_protection');
    assert.equal((await sdkError(() => reader.riskAssessments.settings.update({ enabled: false }))).statusCode, 403);
    assert.equal((await sdkError(() => reader.riskAssessments.settings.newDevice.update({ remember_for: 1 }))).statusCode, 403);
    assert.deepEqual(await reader.riskAssessments.settings.get(), { enabled: true });
  });

  it('reads and patches the supplemental signals', async () => {
    assert.deepEqual(await management.supplementalSignals.get(), { akamai_enabled: false });
    assert.deepEqual(await management.supplementalSignals.patch({ akamai_enabled: true }), { akamai_enabled: true });
    assert.deepEqual(await management.supplementalSignals.get(), { akamai_enabled: true });
    const writer = await scopedManagementClient(server, 'update:attack_protection');
    const refused = await sdkError(() => writer.supplementalSignals.get());
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body.message, 'Insufficient scope, expected any of: read:attack_protection');
  });

  it('clears a user\'s new-device assessor; refuses an unknown user, another connection and a token without update:users', async () => {
    await management.users.riskAssessments.clear(userId, { connection: 'people', assessors: ['new-device'] });
    const unknown = await sdkError(() => management.users.riskAssessments.clear('auth0|nobody', { connection: 'people', assessors: ['new-device'] }));
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body.errorCode, 'inexistent_user');
    const other = await sdkError(() => management.users.riskAssessments.clear(userId, { connection: 'someone-else', assessors: ['new-device'] }));
    assert.equal(other.statusCode, 400);
    const none = await sdkError(() => management.users.riskAssessments.clear(userId, { connection: 'people', assessors: [] }));
    assert.equal(none.statusCode, 400);
    const reader = await scopedManagementClient(server, 'read:users');
    assert.equal((await sdkError(() => reader.users.riskAssessments.clear(userId, { connection: 'people', assessors: ['new-device'] }))).statusCode, 403);
  });

  it('invalidates a user\'s remembered browsers; refuses an unknown user and a token without update:users', async () => {
    await management.users.multifactor.invalidateRememberBrowser(userId);
    const unknown = await sdkError(() => management.users.multifactor.invalidateRememberBrowser('auth0|nobody'));
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body.errorCode, 'inexistent_user');
    const reader = await scopedManagementClient(server, 'read:users');
    assert.equal((await sdkError(() => reader.users.multifactor.invalidateRememberBrowser(userId))).statusCode, 403);
  });
});
