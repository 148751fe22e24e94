/**
 * Management operations of the users, clients and connections areas driven
 * by the official `auth0` SDK (ManagementClient, v7) over real HTTPS:
 * `clients.connections.get` (the connections enabled for a client,
 * checkpoint-paged, by strategy), `connections.users.deleteByEmail` (a
 * database connection's user deleted by email, sessions and all) and
 * `users.multifactor.deleteProvider` (the authenticator-app enrolments of a
 * user); the phone factor's operations under both of the document's names
 * (`guardian.factors.sms` and `guardian.factors.phone`: selected provider,
 * Twilio provider, templates, message types). With the refusals: an unknown client or connection (404), a
 * connection that is not a database connection (400), a bad email (400), a
 * token without the scopes (403), an unknown provider (400), `voice`
 * message types (400: Gatehouse sends text messages only).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ManagementClient } from 'auth0';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { cleanUp } from './support/https.js';
import { adminManagementClient, scopedManagementClient } from './support/sdk-client.js';
import { sdkError } from './support/sdk-error.js';

describe('auth0 SDK: client connections, users by email, multifactor providers', () => {
  let server: ServerProcess;
  let management: ManagementClient;
  const scoped = (scope: string) => scopedManagementClient(server, scope);

  before(async () => {
    server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000' } });
    management = adminManagementClient(server);
  });
  after(() => cleanUp([server].filter(Boolean), [server?.dataDir].filter(Boolean) as string[]));

  it('lists the connections enabled for a client, checkpoint-paged and by strategy', async () => {
    const client = await management.clients.create({ name: 'App', app_type: 'regular_web', callbacks: ['https://app.example.com/cb'] });
    const other = await management.clients.create({ name: 'Other', app_type: 'regular_web', callbacks: ['https://other.example.com/cb'] });
    const made: { id: string; name: string }[] = [];
    for (const [name, strategy] of [['db-one', 'auth0'], ['db-two', 'auth0'], ['passwordless', 'email'], ['db-three', 'auth0']] as const) {
      const enabled = name === 'db-three' ? [other.client_id!] : [client.client_id!, other.client_id!];
      const connection = await management.connections.create({ name, strategy, enabled_clients: enabled });
      made.push({ id: connection.id!, name });
    }
    const expected = made.filter((c) => c.name !== 'db-three').map((c) => c.id).sort();

    const first = await management.clients.connections.get(client.client_id!, { take: 2 });
    assert.equal(first.data.length, 2);
    assert.equal(first.hasNextPage(), true);
    const firstIds = first.data.map((c) => c.id);
    // The SDK's page object moves on in place.
    const second = await first.getNextPage();
    const ids = [...firstIds, ...second.data.map((c) => c.id)];
    assert.deepEqual(ids, expected, 'every enabled connection once, by id, none of another client\'s');
    assert.equal(second.hasNextPage(), false);
    const all: string[] = [];
    for await (const connection of await management.clients.connections.get(client.client_id!, { take: 1 })) all.push(connection.id!);
    assert.deepEqual(all, expected);

    const databases = await management.clients.connections.get(client.client_id!, { strategy: ['auth0'] });
    assert.deepEqual(databases.data.map((c) => c.name).sort(), ['db-one', 'db-two']);
    const named = await management.clients.connections.get(client.client_id!, { fields: 'name', include_fields: true });
    assert.deepEqual(named.data.map((c) => Object.keys(c)), [['name'], ['name'], ['name']]);

    const unknown = await sdkError(() => management.clients.connections.get('no-such-client'));
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.body.message, 'Client does not exist.');
    const onlyConnections = await scoped('read:connections');
    assert.equal((await sdkError(() => onlyConnections.clients.connections.get(client.client_id!))).statusCode, 403);
    const summary = await scoped('read:connections read:client_summary');
    assert.equal((await summary.clients.connections.get(client.client_id!)).data.length, 3);
    const forged = await sdkError(() => management.clients.connections.get(client.client_id!, { from: 'not-a-checkpoint' }));
    assert.equal(forged.statusCode, 400);
  });

  it('deletes a database connection\'s user by email, and refuses other connections and bad input', async () => {
    const client = await management.clients.create({ name: 'Login app', app_type: 'regular_web', callbacks: ['https://login.example.com/cb'] });
    const db = await management.connections.create({ name: 'people', strategy: 'auth0', enabled_clients: [client.client_id!] });
    const otherDb = await management.connections.create({ name: 'people-too', strategy: 'auth0' });
    const keep = await management.users.create({ connection: 'people-too', email: 'Ada@Example.com', password: 'correct horse battery 9' });
    const gone = await management.users.create({ connection: 'people', email: 'Ada@Example.com', password: 'correct horse battery 9' });

    // Compared case-insensitively, as logins compare it; only the named connection's user goes.
    await management.connections.users.deleteByEmail(db.id!, { email: 'ada@example.COM' });
    assert.equal((await sdkError(() => management.users.get(gone.user_id!))).statusCode, 404);
    assert.equal((await management.users.get(keep.user_id!)).email, 'Ada@Example.com');
    // Nothing left to delete is still 204.
    await management.connections.users.deleteByEmail(db.id!, { email: 'ada@example.com' });

    const passwordless = await management.connections.create({ name: 'codes', strategy: 'sms' });
    const notDatabase = await sdkError(() => management.connections.users.deleteByEmail(passwordless.id!, { email: 'ada@example.com' }));
    assert.equal(notDatabase.statusCode, 400);
    assert.equal(notDatabase.body.message, 'Connection must be a database connection');
    const unknown = await sdkError(() => management.connections.users.deleteByEmail('con_0000000000000000', { email: 'ada@example.com' }));
    assert.equal(unknown.statusCode, 404);
    const badEmail = await sdkError(() => management.connections.users.deleteByEmail(otherDb.id!, { email: 'not an email' }));
    assert.equal(badEmail.statusCode, 400);
    const readOnly = await scoped('read:users');
    assert.equal((await sdkError(() => readOnly.connections.users.deleteByEmail(otherDb.id!, { email: 'ada@example.com' }))).statusCode, 403);
    assert.equal((await management.users.get(keep.user_id!)).email, 'Ada@Example.com', 'a refused request deleted nothing');
  });

  it('removes a user\'s authenticator-app enrolments with multifactor.deleteProvider', async () => {
    await management.connections.create({ name: 'mfa-people', strategy: 'auth0' });
    const user = await management.users.create({ connection: 'mfa-people', email: 'grace@example.com', password: 'correct horse battery 9' });
    await management.users.authenticationMethods.create(user.user_id!, { type: 'totp', name: 'phone app', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' });
    await management.users.authenticationMethods.create(user.user_id!, { type: 'email', name: 'mail', email: 'grace@example.com' });
    const types = async () => (await management.users.authenticationMethods.list(user.user_id!)).data.map((m) => m.type).sort();
    assert.deepEqual(await types(), ['email', 'totp']);

    // Duo: Gatehouse has no Duo factor, so nothing changes.
    await management.users.multifactor.deleteProvider(user.user_id!, 'duo');
    assert.deepEqual(await types(), ['email', 'totp']);
    await management.users.multifactor.deleteProvider(user.user_id!, 'google-authenticator');
    assert.deepEqual(await types(), ['email']);

    assert.equal((await sdkError(() => management.users.multifactor.deleteProvider('auth0|nobody', 'google-authenticator'))).statusCode, 404);
    const badProvider = await sdkError(() => management.users.multifactor.deleteProvider(user.user_id!, 'yubikey' as 'duo'));
    assert.equal(badProvider.statusCode, 400);
    const readOnly = await scoped('read:users');
    assert.equal((await sdkError(() => readOnly.users.multifactor.deleteProvider(user.user_id!, 'google-authenticator'))).statusCode, 403);
  });

  it('reads and writes the phone factor\'s settings under both names (sms and phone), one configuration', async () => {
    const { sms, phone } = management.guardian.factors;
    assert.deepEqual(await sms.getSelectedProvider(), { provider: 'auth0' });
    assert.deepEqual(await phone.getSelectedProvider(), { provider: 'auth0' });
    assert.deepEqual(await phone.getMessageTypes(), { message_types: ['sms'] });

    assert.deepEqual(await phone.setProvider({ provider: 'twilio' }), { provider: 'twilio' });
    assert.deepEqual(await sms.getSelectedProvider(), { provider: 'twilio' });
    assert.deepEqual(await sms.setProvider({ provider: 'phone-message-hook' }), { provider: 'phone-message-hook' });
    assert.deepEqual(await phone.getSelectedProvider(), { provider: 'phone-message-hook' });

    await phone.setTwilioProvider({ sid: 'AC0000000000000000000000000000000a', auth_token: 'twilio-secret-token', from: '+15005550006' });
    const twilio = await sms.getTwilioProvider();
    assert.deepEqual(twilio, { sid: 'AC0000000000000000000000000000000a', from: '+15005550006' }, 'the auth token is never read back');
    assert.deepEqual(await phone.getTwilioProvider(), twilio);

    const templates = { enrollment_message: '{{code}} enrols you at {{tenant.friendly_name}}', verification_message: '{{code}} is your code' };
    await phone.setTemplates(templates);
    assert.deepEqual(await sms.getTemplates(), templates);
    const badTemplate = await sdkError(() => phone.setTemplates({ ...templates, verification_message: '{{ code ' }));
    assert.equal(badTemplate.statusCode, 400);

    assert.deepEqual(await phone.setMessageTypes({ message_types: ['sms', 'sms'] }), { message_types: ['sms'] });
    const voice = await sdkError(() => phone.setMessageTypes({ message_types: ['sms', 'voice'] }));
    assert.equal(voice.statusCode, 400);
    assert.match(voice.body.message, /voice is not supported/);
    const unknown = await sdkError(() => phone.setProvider({ provider: 'carrier-pigeon' as 'twilio' }));
    assert.equal(unknown.statusCode, 400);
    assert.deepEqual(await phone.getSelectedProvider(), { provider: 'phone-message-hook' }, 'a refused write changed nothing');
    const readOnly = await scoped('read:guardian_factors');
    assert.deepEqual(await readOnly.guardian.factors.phone.getMessageTypes(), { message_types: ['sms'] });
    assert.equal((await sdkError(() => readOnly.guardian.factors.phone.setProvider({ provider: 'auth0' }))).statusCode, 403);
  });
});
