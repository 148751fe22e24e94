/**
 * What a new tenant starts with: the default database connection enabled for
 * its clients and, through the tenant's `enable_client_connections`, for
 * clients created later; a free name when the one derived from the domain is
 * taken; the loopback names of the default tenant.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { loopbackAliases } from '../../src/app/loopback-aliases.js';

interface Connection {
  id: string;
  name: string;
  strategy: string;
  enabled_clients: string[];
}

describe('a new tenant with the default connection (GATEHOUSE_DEFAULT_CONNECTION=1)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_DEFAULT_CONNECTION: '1' } });
  });
  after(() => t.close());

  async function defaultConnection(): Promise<Connection> {
    const list = await t.management('GET', '/api/v2/connections?name=Username-Password-Authentication');
    assert.equal(list.statusCode, 200, list.body);
    const [only] = list.json() as Connection[];
    assert.ok(only, 'the default connection exists');
    const got = await t.management('GET', `/api/v2/connections/${only.id}`);
    return got.json() as Connection;
  }

  test('Username-Password-Authentication (auth0) is enabled for the clients the tenant starts with', async () => {
    assert.equal(((await t.management('GET', '/api/v2/connections')).json() as Connection[]).length, 1, 'the only connection');
    const connection = await defaultConnection();
    assert.equal(connection.name, 'Username-Password-Authentication');
    assert.equal(connection.strategy, 'auth0');
    const clients = (await t.ctx.stores.clients.list(t.tenant.id, {}, { kind: 'offset', offset: 0, limit: 10 }, false)).map((c) => c.client_id);
    assert.deepEqual([...connection.enabled_clients].sort(), [...clients].sort());
    assert.ok(connection.enabled_clients.includes(t.admin.client_id));
    assert.equal(t.tenant.settings.enable_client_connections, true);
  });

  test('a client created later is enabled on every connection the tenant has then, not on later ones', async () => {
    const other = await t.management('POST', '/api/v2/connections', { body: { name: 'second-db', strategy: 'auth0' } });
    assert.equal(other.statusCode, 201, other.body);
    const created = await t.management('POST', '/api/v2/clients', { body: { name: 'Later App', app_type: 'regular_web', callbacks: ['https://app.example/cb'] } });
    assert.equal(created.statusCode, 201, created.body);
    const clientId = (created.json() as { client_id: string }).client_id;
    assert.ok((await defaultConnection()).enabled_clients.includes(clientId));
    const second = (await t.management('GET', `/api/v2/connections/${(other.json() as Connection).id}`)).json() as Connection;
    assert.deepEqual(second.enabled_clients, [clientId]);
    const third = await t.management('POST', '/api/v2/connections', { body: { name: 'third-db', strategy: 'auth0' } });
    assert.deepEqual((third.json() as Connection).enabled_clients, [], 'a connection created later is enabled for no client unless asked');
  });

  test('a tenant whose derived name is taken gets the first free suffix; an explicit taken name is refused', async () => {
    const first = await t.ctx.tenants.create({ domain: 'shop.example:8443' });
    const second = await t.ctx.tenants.create({ domain: 'shop.example:9443' });
    assert.equal(first.tenant.name, 'shop');
    assert.equal(second.tenant.name, 'shop-2');
    await assert.rejects(t.ctx.tenants.create({ domain: 'shop.example:10443', name: 'shop' }), /a tenant named "shop" exists/);
  });
});

describe('a tenant without the default connection (GATEHOUSE_DEFAULT_CONNECTION=0)', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_DEFAULT_CONNECTION: '0' } });
  });
  after(() => t.close());

  test('starts with no connection, and new clients are enabled on none', async () => {
    assert.deepEqual((await t.management('GET', '/api/v2/connections')).json(), []);
    const connection = await t.management('POST', '/api/v2/connections', { body: { name: 'db', strategy: 'auth0' } });
    const created = await t.management('POST', '/api/v2/clients', { body: { name: 'App' } });
    assert.equal(created.statusCode, 201);
    const got = (await t.management('GET', `/api/v2/connections/${(connection.json() as Connection).id}`)).json() as Connection;
    assert.deepEqual(got.enabled_clients, []);
    assert.equal(t.tenant.settings.enable_client_connections, undefined);
  });
});

describe('loopback names of the default tenant', () => {
  test('127.0.0.1:PORT and [::1]:PORT when the default tenant is localhost on the listening port, and only then', () => {
    assert.deepEqual([...loopbackAliases({ defaultDomain: 'localhost:3000', port: 3000 })], [
      ['127.0.0.1:3000', 'localhost:3000'],
      ['[::1]:3000', 'localhost:3000'],
    ]);
    assert.equal(loopbackAliases({ defaultDomain: 'auth.example.com', port: 3000 }).size, 0);
    assert.equal(loopbackAliases({ defaultDomain: 'localhost:8443', port: 3000 }).size, 0, 'behind a proxy that maps ports, the addresses are not ours to claim');
  });
});
