/**
 * /api/v2/rate-limit-policies on the real app and database: create, get,
 * list (filters, checkpoint paging), patch, delete; and the refusals: 400
 * for what the document refuses and what Gatehouse cannot enforce (the CIMD
 * selectors, a client that does not exist, a configuration whose members do
 * not fit its action), 409 a second policy for the same selector, 403 a
 * missing scope, 404 an unknown policy; a refused write changes nothing.
 * That a policy limits requests: test/authentication/rate-limit-policies.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';

interface Policy {
  id: string;
  resource: string;
  consumer: string;
  consumer_selector: string;
  configuration: { action: string; limit?: number; redirect_uri?: string };
  created_at: string;
  updated_at: string;
}

describe('/api/v2/rate-limit-policies', () => {
  let t: TestApp;
  let client: TestClient;
  // One token: the policies written here limit the admin client's own token requests too (`default`).
  let admin: string;
  const call = (method: string, url: string, body?: unknown, token = admin) => t.management(method, url, { ...(body !== undefined && { body }), token });
  const policy = (consumer_selector: string, configuration: Record<string, unknown>) => ({ resource: 'oauth_authentication_api', consumer: 'client', consumer_selector, configuration });
  const listed = async () => ((await call('GET', '/api/v2/rate-limit-policies')).json() as { rate_limit_policies: Policy[] }).rate_limit_policies;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { name: 'Limited' });
    admin = await t.managementToken();
  });
  after(() => t.close());

  it('creates, reads, lists, patches and deletes a policy', async () => {
    const created = await call('POST', '/api/v2/rate-limit-policies', policy(`client_id:${client.client_id}`, { action: 'block', limit: 20 }));
    assert.equal(created.statusCode, 201, created.body);
    const body = created.json() as Policy;
    assert.match(body.id, /^rlp_[A-Za-z0-9]{22}$/);
    assert.equal(body.id.length, 26);
    assert.deepEqual({ ...body, id: 'x', created_at: 'x', updated_at: 'x' }, {
      id: 'x',
      resource: 'oauth_authentication_api',
      consumer: 'client',
      consumer_selector: `client_id:${client.client_id}`,
      configuration: { action: 'block', limit: 20 },
      created_at: 'x',
      updated_at: 'x',
    });
    assert.ok(!Number.isNaN(Date.parse(body.created_at)));

    const got = await call('GET', `/api/v2/rate-limit-policies/${body.id}`);
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), body);

    const other = await call('POST', '/api/v2/rate-limit-policies', policy('default', { action: 'redirect', limit: 5, redirect_uri: 'https://status.example.com/slow-down' }));
    assert.equal(other.statusCode, 201, other.body);
    const otherId = (other.json() as Policy).id;

    // Filters and checkpoint paging.
    const bySelector = (await call('GET', '/api/v2/rate-limit-policies?consumer_selector=default')).json() as { rate_limit_policies: Policy[] };
    assert.deepEqual(bySelector.rate_limit_policies.map((p) => p.id), [otherId]);
    const first = (await call('GET', '/api/v2/rate-limit-policies?take=1&resource=oauth_authentication_api&consumer=client')).json() as { rate_limit_policies: Policy[]; next?: string };
    assert.equal(first.rate_limit_policies.length, 1);
    assert.ok(first.next);
    const second = (await call('GET', `/api/v2/rate-limit-policies?take=1&resource=oauth_authentication_api&consumer=client&from=${encodeURIComponent(first.next)}`)).json() as { rate_limit_policies: Policy[]; next?: string };
    assert.equal(second.rate_limit_policies.length, 1);
    assert.equal(second.next, undefined);
    assert.deepEqual([first.rate_limit_policies[0]!.id, second.rate_limit_policies[0]!.id].sort(), [body.id, otherId].sort());

    const patched = await call('PATCH', `/api/v2/rate-limit-policies/${body.id}`, { configuration: { action: 'log', limit: 3 } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual((patched.json() as Policy).configuration, { action: 'log', limit: 3 });
    assert.equal((patched.json() as Policy).created_at, body.created_at);
    assert.deepEqual(((await call('GET', `/api/v2/rate-limit-policies/${body.id}`)).json() as Policy).configuration, { action: 'log', limit: 3 });

    const allow = await call('PATCH', `/api/v2/rate-limit-policies/${body.id}`, { configuration: { action: 'allow' } });
    assert.deepEqual((allow.json() as Policy).configuration, { action: 'allow' });

    for (const id of [body.id, otherId]) assert.equal((await call('DELETE', `/api/v2/rate-limit-policies/${id}`)).statusCode, 204);
    const gone = await call('GET', `/api/v2/rate-limit-policies/${body.id}`);
    assert.equal(gone.statusCode, 404);
    assert.equal((gone.json() as { message: string }).message, 'The rate limit policy does not exist.');
    assert.deepEqual(await listed(), []);
  });

  it('409 for a second policy of the same resource, consumer and selector', async () => {
    const first = await call('POST', '/api/v2/rate-limit-policies', policy('third_party_clients', { action: 'block', limit: 1 }));
    assert.equal(first.statusCode, 201, first.body);
    const again = await call('POST', '/api/v2/rate-limit-policies', policy('third_party_clients', { action: 'log', limit: 9 }));
    assert.equal(again.statusCode, 409, again.body);
    assert.equal((again.json() as { message: string }).message, 'A rate limit policy with the same resource, consumer, and consumer_selector already exists.');
    assert.equal((await listed()).length, 1);
    assert.equal((await call('DELETE', `/api/v2/rate-limit-policies/${(first.json() as Policy).id}`)).statusCode, 204);
  });

  it('400 for what the document refuses and what Gatehouse cannot enforce, and nothing is written', async () => {
    const refusals: [unknown, RegExp][] = [
      [policy('cimd_clients', { action: 'block', limit: 1 }), /Client ID Metadata Document/],
      [policy('client_id:https://app.example.com/client.json', { action: 'block', limit: 1 }), /Client ID Metadata Document/],
      [policy('client_id:nosuchclient', { action: 'block', limit: 1 }), /The client nosuchclient does not exist/],
      [policy('client_id:', { action: 'block', limit: 1 }), /does not exist/],
      [policy('everyone', { action: 'block', limit: 1 }), /everyone is not a supported selector/],
      [policy('default', { action: 'block' }), /Missing required property: limit/],
      [policy('default', { action: 'log' }), /Missing required property: limit/],
      [policy('default', { action: 'allow', limit: 4 }), /limit is not allowed with the allow action/],
      [policy('default', { action: 'block', limit: 4, redirect_uri: 'https://x.example' }), /redirect_uri is only allowed with the redirect action/],
      [policy('default', { action: 'redirect', limit: 4 }), /An https URL is required/],
      [policy('default', { action: 'redirect', limit: 4, redirect_uri: 'http://x.example/' }), /An https URL is required/],
      [policy('default', { action: 'redirect', limit: 4, redirect_uri: 'not a url' }), /An https URL is required/],
      [policy('default', { action: 'block', limit: 10001 }), /./],
      [policy('default', { action: 'block', limit: -1 }), /./],
      [policy('default', { action: 'block', limit: 1.5 }), /./],
      [policy('default', { action: 'throttle', limit: 1 }), /./],
      [{ ...policy('default', { action: 'block', limit: 1 }), resource: 'management_api' }, /./],
      [{ ...policy('default', { action: 'block', limit: 1 }), consumer: 'user' }, /./],
      [{ ...policy('default', { action: 'block', limit: 1 }), extra: true }, /./],
      [{ resource: 'oauth_authentication_api', consumer: 'client', consumer_selector: 'default' }, /./],
    ];
    for (const [body, message] of refusals) {
      const res = await call('POST', '/api/v2/rate-limit-policies', body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
      const error = res.json() as { statusCode: number; error: string; message: string };
      assert.equal(error.error, 'Bad Request');
      assert.match(error.message, message, JSON.stringify(body));
    }
    assert.deepEqual(await listed(), []);

    // PATCH refuses a bad configuration and keeps the policy's.
    const created = (await call('POST', '/api/v2/rate-limit-policies', policy('default', { action: 'block', limit: 7 }))).json() as Policy;
    for (const body of [{ configuration: { action: 'block' } }, { configuration: { action: 'redirect', limit: 1, redirect_uri: 'ftp://x' } }, { consumer_selector: 'third_party_clients', configuration: { action: 'allow' } }, {}]) {
      const res = await call('PATCH', `/api/v2/rate-limit-policies/${created.id}`, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)} → ${res.body}`);
    }
    assert.deepEqual(((await call('GET', `/api/v2/rate-limit-policies/${created.id}`)).json() as Policy).configuration, { action: 'block', limit: 7 });
    assert.equal((await call('DELETE', `/api/v2/rate-limit-policies/${created.id}`)).statusCode, 204);
  });

  it('404 for an unknown or malformed id; 400 for a bad query', async () => {
    for (const id of ['rlp_0000000000000000000000', 'nope']) {
      assert.equal((await call('GET', `/api/v2/rate-limit-policies/${id}`)).statusCode, 404);
      assert.equal((await call('PATCH', `/api/v2/rate-limit-policies/${id}`, { configuration: { action: 'allow' } })).statusCode, 404);
      assert.equal((await call('DELETE', `/api/v2/rate-limit-policies/${id}`)).statusCode, 404);
    }
    assert.equal((await call('GET', '/api/v2/rate-limit-policies?take=0')).statusCode, 400);
    assert.equal((await call('GET', '/api/v2/rate-limit-policies?resource=other')).statusCode, 400);
    assert.equal((await call('GET', '/api/v2/rate-limit-policies?from=garbage')).statusCode, 400);
  });

  it('the auth0 SDK’s rateLimitPolicies calls: create, list (paged), get, update, delete, and its 409', async () => {
    const sdk = await inProcessSdk(t, admin);
    const created = await sdk.rateLimitPolicies.create({ resource: 'oauth_authentication_api', consumer: 'client', consumer_selector: `client_id:${client.client_id}`, configuration: { action: 'block', limit: 8 } });
    assert.match(created.id, /^rlp_/);
    await assert.rejects(
      sdk.rateLimitPolicies.create({ resource: 'oauth_authentication_api', consumer: 'client', consumer_selector: `client_id:${client.client_id}`, configuration: { action: 'log', limit: 1 } }),
      (error: { statusCode?: number }) => error.statusCode === 409,
    );
    const second = await sdk.rateLimitPolicies.create({ resource: 'oauth_authentication_api', consumer: 'client', consumer_selector: 'third_party_clients', configuration: { action: 'allow' } });
    const seen: string[] = [];
    for await (const policy of await sdk.rateLimitPolicies.list({ take: 1 })) seen.push(policy.id);
    assert.deepEqual(seen.sort(), [created.id, second.id].sort());
    assert.deepEqual((await sdk.rateLimitPolicies.get(created.id)).configuration, { action: 'block', limit: 8 });
    const updated = await sdk.rateLimitPolicies.update(created.id, { configuration: { action: 'redirect', limit: 2, redirect_uri: 'https://wait.example.com/' } });
    assert.deepEqual(updated.configuration, { action: 'redirect', limit: 2, redirect_uri: 'https://wait.example.com/' });
    await sdk.rateLimitPolicies.delete(created.id);
    await sdk.rateLimitPolicies.delete(second.id);
    await assert.rejects(sdk.rateLimitPolicies.get(created.id), (error: { statusCode?: number }) => error.statusCode === 404);
  });

  it('403 without the operation’s scope, and nothing written', async () => {
    const readOnly = await t.managementToken('read:rate_limit_policies');
    const res = await call('POST', '/api/v2/rate-limit-policies', policy('default', { action: 'block', limit: 1 }), readOnly);
    assert.equal(res.statusCode, 403, res.body);
    assert.equal((res.json() as { message: string }).message, 'Insufficient scope, expected any of: create:rate_limit_policies');
    assert.equal((await call('GET', '/api/v2/rate-limit-policies', undefined, readOnly)).statusCode, 200);
    const writeOnly = await t.managementToken('create:rate_limit_policies');
    assert.equal((await call('GET', '/api/v2/rate-limit-policies', undefined, writeOnly)).statusCode, 403);
    assert.equal((await call('DELETE', '/api/v2/rate-limit-policies/rlp_0000000000000000000000', undefined, readOnly)).statusCode, 403);
    assert.deepEqual(await listed(), []);
  });
});

describe('/api/v2/rate-limit-policies on PostgreSQL', () => {
  it('creates, refuses a second policy for the selector with 409, pages, patches and deletes', async () => {
    const t = await createTestApp({ postgres: true });
    try {
      const token = await t.managementToken();
      const call = (method: string, url: string, body?: unknown) => t.management(method, url, { token, ...(body !== undefined && { body }) });
      const body = (consumer_selector: string) => ({ resource: 'oauth_authentication_api', consumer: 'client', consumer_selector, configuration: { action: 'block', limit: 100 } });
      const a = await call('POST', '/api/v2/rate-limit-policies', body('default'));
      assert.equal(a.statusCode, 201, a.body);
      assert.equal((await call('POST', '/api/v2/rate-limit-policies', body('default'))).statusCode, 409);
      const b = await call('POST', '/api/v2/rate-limit-policies', body('third_party_clients'));
      assert.equal(b.statusCode, 201, b.body);
      const page = (await call('GET', '/api/v2/rate-limit-policies?take=1')).json() as { rate_limit_policies: Policy[]; next?: string };
      const rest = (await call('GET', `/api/v2/rate-limit-policies?take=1&from=${encodeURIComponent(page.next!)}`)).json() as { rate_limit_policies: Policy[]; next?: string };
      assert.deepEqual([...page.rate_limit_policies, ...rest.rate_limit_policies].map((p) => p.id).sort(), [(a.json() as Policy).id, (b.json() as Policy).id].sort());
      const id = (a.json() as Policy).id;
      const patched = await call('PATCH', `/api/v2/rate-limit-policies/${id}`, { configuration: { action: 'redirect', limit: 2, redirect_uri: 'https://x.example/' } });
      assert.deepEqual((patched.json() as Policy).configuration, { action: 'redirect', limit: 2, redirect_uri: 'https://x.example/' });
      assert.equal((await call('DELETE', `/api/v2/rate-limit-policies/${id}`)).statusCode, 204);
      assert.equal((await call('GET', `/api/v2/rate-limit-policies/${id}`)).statusCode, 404);
    } finally {
      await t.close();
    }
  });
});
