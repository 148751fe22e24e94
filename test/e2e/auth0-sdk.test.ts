/**
 * The official `auth0` SDK (v7) against the built server over real HTTPS.
 *
 * The SDK runs in its own Node process (test/e2e/clients/auth0-sdk-client.ts)
 * started with NODE_EXTRA_CA_CERTS=<data dir>/tls/cert.pem, since Node reads
 * that variable only at start-up; the SDK's fetch therefore verifies the
 * server's self-signed certificate for real. The client prints one JSON
 * document describing every call; the assertions are here.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import type { Auth0SdkRun, Step, StepError } from './clients/auth0-sdk-client.js';
import { cleanUp, runNode } from './support/https.js';

const CLIENT_SCRIPT = path.join(ROOT, 'test/e2e/clients/auth0-sdk-client.ts');

interface ResourceServer {
  id: string;
  name: string;
  identifier: string;
  is_system: boolean;
  scopes: { value: string; description?: string }[];
  signing_alg: string;
  token_lifetime: number;
}

interface ClientGrant {
  id: string;
  client_id: string;
  audience: string;
  scope: string[];
}

let server: ServerProcess;
let suffix: string;
const servers: ServerProcess[] = [];

function environmentWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}

async function runSdkClient(env: NodeJS.ProcessEnv, listOnly = false): Promise<Auth0SdkRun> {
  const admin = server.admin();
  const input = { domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, suffix, listOnly };
  const result = await runNode(['--import', 'tsx', CLIENT_SCRIPT, JSON.stringify(input)], { cwd: ROOT, env, timeoutMs: 90_000 });
  assert.equal(result.code, 0, `the SDK client failed:\n${result.stderr}\n${result.stdout}`);
  return JSON.parse(result.stdout) as Auth0SdkRun;
}

function succeeded<T>(run: Auth0SdkRun, name: string): T {
  const step: Step | undefined = run.steps[name];
  assert.ok(step, `step ${name} did not run`);
  assert.ok(step.ok, `step ${name} failed: ${JSON.stringify(!step.ok && step.error, null, 2)}`);
  return step.value as T;
}

function failed(run: Auth0SdkRun, name: string): StepError {
  const step: Step | undefined = run.steps[name];
  assert.ok(step, `step ${name} did not run`);
  assert.ok(!step.ok, `step ${name} succeeded but should have failed: ${JSON.stringify(step.ok && step.value)}`);
  return step.error;
}

before(async () => {
  suffix = randomBytes(4).toString('hex');
  server = await startServerProcess();
  servers.push(server);
});

after(async () => {
  await cleanUp(servers, servers.map((s) => s.dataDir));
});

describe('auth0 SDK ManagementClient with client credentials, certificate trusted through NODE_EXTRA_CA_CERTS', () => {
  let run: Auth0SdkRun;
  before(async () => {
    run = await runSdkClient({ ...environmentWithout('NODE_TLS_REJECT_UNAUTHORIZED'), NODE_EXTRA_CA_CERTS: server.certFile });
  });

  test('the SDK obtains its own token once (POST /oauth/token) and reuses it for every Management API call', () => {
    const tokenRequests = run.requests.filter((r) => r.url === `${server.baseUrl}/oauth/token`);
    assert.equal(tokenRequests.length, 1, JSON.stringify(run.requests, null, 2));
    assert.deepEqual(tokenRequests[0], { method: 'POST', url: `${server.baseUrl}/oauth/token`, status: 200 });
    assert.equal(run.requests[0]?.url, `${server.baseUrl}/oauth/token`, 'the token is fetched before the first API call');
    const apiCalls = run.requests.slice(1);
    assert.ok(apiCalls.length >= 15, `expected the scenario's API calls, got ${apiCalls.length}`);
    for (const call of apiCalls) assert.ok(call.url.startsWith(`${server.baseUrl}/api/v2/`), call.url);
  });

  test('resourceServers.list returns the tenant Management API (include_totals envelope unwrapped by the SDK)', () => {
    const list = succeeded<{ data: ResourceServer[]; response: { total: number; start: number; limit: number; resource_servers: unknown[] } }>(
      run,
      'listResourceServers',
    );
    const managementApi = list.data.find((rs) => rs.identifier === `https://${server.domain}/api/v2/`);
    assert.ok(managementApi, `Management API missing from ${JSON.stringify(list.data.map((rs) => rs.identifier))}`);
    assert.equal(managementApi.is_system, true);
    assert.equal(managementApi.name, 'Auth0 Management API');
    assert.ok(managementApi.scopes.some((s) => s.value === 'read:resource_servers'));
    // The SDK always sends include_totals=true, page=0, per_page=50.
    assert.equal(list.response.total, list.data.length);
    assert.equal(list.response.start, 0);
    assert.equal(list.response.limit, 50);
    assert.equal(list.response.resource_servers.length, list.data.length);

    const filtered = succeeded<{ data: ResourceServer[] }>(run, 'listResourceServersByIdentifier');
    assert.deepEqual(filtered.data, [], 'filtering by a not yet created identifier gives an empty page');
  });

  test('resourceServers.create / get (by id and by identifier) / update', () => {
    const identifier = `https://sdk-api-${suffix}.example.com/`;
    const created = succeeded<ResourceServer>(run, 'createResourceServer');
    assert.match(created.id, /^[0-9a-f]{24}$/);
    assert.equal(created.identifier, identifier);
    assert.equal(created.name, `SDK API ${suffix}`);
    assert.equal(created.is_system, false);
    assert.equal(created.signing_alg, 'RS256');
    assert.equal(created.token_lifetime, 3600);
    assert.deepEqual(created.scopes, [
      { value: 'read:things', description: 'Read things' },
      { value: 'write:things', description: 'Write things' },
    ]);

    assert.deepEqual(succeeded(run, 'getResourceServer'), created);
    assert.deepEqual(succeeded(run, 'getResourceServerByIdentifier'), created);

    const updated = succeeded<ResourceServer>(run, 'updateResourceServer');
    assert.equal(updated.id, created.id);
    assert.equal(updated.identifier, identifier);
    assert.equal(updated.name, `SDK API ${suffix} (renamed)`);
    assert.equal(updated.token_lifetime, 3600, 'members not in the PATCH body are kept');
    assert.deepEqual(
      updated.scopes.map((s) => s.value),
      ['read:things', 'write:things', 'delete:things'],
    );
  });

  test('a duplicate identifier is a typed ConflictError (409) carrying the service body', () => {
    const error = failed(run, 'createDuplicateResourceServer');
    assert.equal(error.name, 'ConflictError');
    assert.equal(error.isConflictError, true);
    assert.equal(error.isManagementError, true);
    assert.equal(error.statusCode, 409);
    assert.deepEqual(error.body, {
      statusCode: 409,
      error: 'Conflict',
      message: 'A resource server with the same identifier already exists.',
      errorCode: 'conflict',
    });
  });

  test('clientGrants.create / list / update / get for the admin client and the new API', () => {
    const admin = server.admin();
    const identifier = `https://sdk-api-${suffix}.example.com/`;
    const grant = succeeded<ClientGrant>(run, 'createClientGrant');
    assert.match(grant.id, /^cgr_/);
    assert.equal(grant.client_id, admin.client_id);
    assert.equal(grant.audience, identifier);
    assert.deepEqual(grant.scope, ['read:things']);

    const list = succeeded<{ data: ClientGrant[]; hasNextPage: boolean }>(run, 'listClientGrantsForAudience');
    assert.deepEqual(
      list.data.map((g) => g.id),
      [grant.id],
    );
    assert.equal(list.hasNextPage, false, 'a single checkpoint page has no `next`');

    const updated = succeeded<ClientGrant>(run, 'updateClientGrant');
    assert.equal(updated.id, grant.id);
    assert.deepEqual(updated.scope, ['read:things', 'write:things']);
    assert.deepEqual(succeeded(run, 'getClientGrant'), updated);
  });

  test('client grant errors are typed: 409 ConflictError, 404 NotFoundError, 400 BadRequestError', () => {
    const duplicate = failed(run, 'createDuplicateClientGrant');
    assert.equal(duplicate.isConflictError, true);
    assert.equal(duplicate.statusCode, 409);
    assert.equal((duplicate.body as { statusCode?: number }).statusCode, 409);

    const unknownAudience = failed(run, 'createClientGrantUnknownAudience');
    assert.equal(unknownAudience.isNotFoundError, true);
    assert.equal(unknownAudience.statusCode, 404);
    assert.equal((unknownAudience.body as { errorCode?: string }).errorCode, 'inexistent_resource_server');

    const undefinedScope = failed(run, 'updateClientGrantUndefinedScope');
    assert.equal(undefinedScope.isBadRequestError, true);
    assert.equal(undefinedScope.statusCode, 400);
    assert.equal((undefinedScope.body as { errorCode?: string }).errorCode, 'invalid_body');
    assert.match((undefinedScope.body as { message: string }).message, /fly:things/);
  });

  test('the grant created through the SDK lets the client get a token for the new API', () => {
    const identifier = `https://sdk-api-${suffix}.example.com/`;
    const token = succeeded<{ status: number; body: { access_token: string; scope: string; expires_in: number; token_type: string } }>(
      run,
      'tokenForNewApi',
    );
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.equal(token.body.token_type, 'Bearer');
    assert.equal(token.body.expires_in, 3600);
    assert.equal(token.body.scope, 'read:things write:things');
    const claims = decodeJwt(token.body.access_token);
    assert.equal(claims.aud, identifier);
    assert.equal(claims.scope, 'read:things write:things');
  });

  test('delete, then get is a typed NotFoundError (404) with the service body', () => {
    assert.equal(succeeded(run, 'deleteClientGrant'), null);
    const grantGone = failed(run, 'getDeletedClientGrant');
    assert.equal(grantGone.isNotFoundError, true);
    assert.equal(grantGone.statusCode, 404);
    assert.equal((grantGone.body as { errorCode?: string }).errorCode, 'inexistent_client_grant');

    assert.equal(succeeded(run, 'deleteResourceServer'), null);
    const expected = {
      statusCode: 404,
      error: 'Not Found',
      message: 'The resource server does not exist',
      errorCode: 'inexistent_resource_server',
    };
    for (const name of ['getDeletedResourceServer', 'getMissingResourceServer']) {
      const error = failed(run, name);
      assert.equal(error.name, 'NotFoundError', name);
      assert.equal(error.isNotFoundError, true, name);
      assert.equal(error.isManagementError, true, name);
      assert.equal(error.statusCode, 404, name);
      assert.deepEqual(error.body, expected, name);
    }
  });

  test('a wrong client secret fails the SDK token request with ManagementError 401 and the OAuth body', () => {
    const error = failed(run, 'listWithWrongSecret');
    assert.equal(error.isManagementError, true);
    assert.equal(error.statusCode, 401);
    assert.deepEqual(error.body, { error: 'access_denied', error_description: 'Unauthorized' });
  });

  test('a token the server did not issue is a typed UnauthorizedError (401)', () => {
    const error = failed(run, 'listWithBogusToken');
    assert.equal(error.isUnauthorizedError, true);
    assert.equal(error.statusCode, 401);
    assert.deepEqual(error.body, {
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Invalid token',
      attributes: { error: 'Invalid token' },
    });
  });
});

describe('auth0 SDK without the certificate in its trust store', () => {
  test('the SDK refuses the self-signed certificate: TLS verification is real', async () => {
    const run = await runSdkClient(environmentWithout('NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED'), true);
    const error = failed(run, 'listResourceServers');
    assert.equal(error.isManagementError, false);
    assert.match(`${error.cause ?? ''} ${error.causeCode ?? ''}`, /self[- ]signed|SELF_SIGNED/i, JSON.stringify(error));
    assert.deepEqual(run.requests, [], 'no request may complete');
  });
});
