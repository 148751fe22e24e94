/**
 * The client responses are serialised by their schemas, never by the object a
 * service hands back (STYLE 5):
 *
 * - with a service stub that puts every secret, and members the document does
 *   not declare, into each client, the client routes still send only what the
 *   token's scopes may read (spec, Authentication part, item 3);
 * - through the real app, the serialised client equals what the service
 *   presents: no stored member is dropped or changed by the schema (nulls
 *   stay null, nested members stay), and a stored member the schema does not
 *   declare is not sent;
 * - the field list and the per-scope schemas derive from the generated
 *   response schema.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { canRead, CREDENTIAL_FIELDS, SUMMARY_FIELDS } from '../../src/domain/clients/model.js';
import { createClient } from '../../src/management/clients/create.js';
import { CLIENT_FIELDS, clientSchemas, LEGACY_CLIENT_FIELDS } from '../../src/management/clients/fields.js';
import { getClient } from '../../src/management/clients/get.js';
import { listClients } from '../../src/management/clients/list.js';
import { rotateClientSecret } from '../../src/management/clients/rotate-secret.js';
import { CLIENT_RESPONSE_FIELDS, UpdateClientBody } from '../../src/management/clients/schema.js';
import { ClientService, type ClientList } from '../../src/management/clients/service.js';
import { updateClient } from '../../src/management/clients/update.js';
import { errorHandler } from '../../src/platform/http/error-handler.js';
import { validatorCompiler } from '../../src/platform/http/validation.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

type Json = Record<string, unknown>;

/** Every value the stub puts into a field no token of the case may read carries this marker. */
const SECRET = 'SECRET';

/** What a careless service could hand the serializer: every credential, private key parts, and members the schema does not declare. */
function leakyClient(): Json {
  return {
    client_id: 'leaky00000000000000000000000000a',
    name: 'Leaky',
    description: 'a service that returns too much',
    app_type: 'spa',
    tenant: 'tenant',
    global: false,
    callbacks: ['https://app.example.com/callback'],
    jwt_configuration: { lifetime_in_seconds: 36000, secret_encoded: true },
    client_secret: `${SECRET}-client-secret`,
    encryption_key: { pub: `${SECRET}-pub`, cert: `${SECRET}-cert` },
    client_authentication_methods: { private_key_jwt: { credentials: [{ id: `${SECRET}-credential` }] } },
    signing_keys: [{ cert: 'cert', pkcs7: 'pkcs7', subject: 'deprecated', private_key: `${SECRET}-private-key`, d: `${SECRET}-d` }],
    signing_key: { private: `${SECRET}-legacy-signing-key` },
    stored_only: `${SECRET}-undeclared`,
  };
}

const CONFIG_ONLY = ['callbacks', 'jwt_configuration', 'tenant', 'global'];
const CREDENTIALS = ['client_secret', 'encryption_key', 'client_authentication_methods', 'signing_keys'];

/** The service as the client routes call it, answering every call with leakyClient(). */
function leakyService(): ClientService {
  const list = async (...args: unknown[]): Promise<ClientList> => {
    const paging = args[2] as { kind: string; includeTotals?: boolean };
    const clients = [leakyClient(), leakyClient()];
    if (paging.kind === 'checkpoint') return { clients, next: 'next-page' };
    return paging.includeTotals ? { total: 2, start: 0, limit: 50, clients } : clients;
  };
  const stub = {
    find: async () => ({}),
    present: async () => leakyClient(),
    create: async () => leakyClient(),
    update: async () => leakyClient(),
    rotateSecret: async () => leakyClient(),
    list,
  };
  return stub as unknown as ClientService;
}

/** The client routes on their own, with the stub service and a principal holding the scopes of the `x-scopes` header. */
async function routesWithStub(t: TestApp): Promise<FastifyInstance> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  app.addHook('onRequest', async (request) => {
    request.tenant = t.tenant;
    const scopes = String(request.headers['x-scopes'] ?? '').split(' ').filter(Boolean);
    request.principal = { kind: 'client', sub: 'stub@clients', clientId: 'stub', scopes: new Set(scopes) };
  });
  const service = leakyService();
  for (const route of [listClients, getClient, updateClient, createClient, rotateClientSecret]) {
    app.register(async (scope) => scope.route(route(t.ctx, service)), { prefix: '/api/v2' });
  }
  await app.ready();
  return app;
}

/** Every client object of a response body, whichever shape it has. */
function clientsOf(body: unknown): Json[] {
  if (Array.isArray(body)) return body as Json[];
  const object = body as Json;
  return 'clients' in object ? (object.clients as Json[]) : [object];
}

describe('client responses are serialised by their schemas', () => {
  let t: TestApp;
  let stubbed: FastifyInstance;

  before(async () => {
    t = await createTestApp();
    stubbed = await routesWithStub(t);
  });
  after(async () => {
    await stubbed.close();
    await t.close();
  });

  describe('a field the token may not read cannot be serialised, whatever the service returns', () => {
    const send = (method: 'GET' | 'PATCH' | 'POST', url: string, scopes: string, body?: Json) =>
      stubbed.inject({
        method,
        url,
        headers: { 'x-scopes': scopes, ...(body && { 'content-type': 'application/json' }) },
        ...(body && { payload: JSON.stringify(body) }),
      });

    const LIST_SHAPES = ['/api/v2/clients', '/api/v2/clients?include_totals=true', '/api/v2/clients?take=2'];

    it('read:clients: the configuration, no credential, nothing undeclared', async () => {
      for (const url of [...LIST_SHAPES, '/api/v2/clients/leaky']) {
        const res = await send('GET', url, 'read:clients');
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(!res.body.includes(SECRET), `${url}: ${res.body}`);
        for (const client of clientsOf(res.json())) {
          for (const field of CREDENTIALS) assert.ok(!(field in client), `${url}: ${field}`);
          for (const field of CONFIG_ONLY) assert.ok(field in client, `${url}: ${field}`);
          assert.equal(client.client_id, leakyClient().client_id);
        }
      }
    });

    it('read:client_summary: client_id, app_type, name and description only', async () => {
      for (const url of [...LIST_SHAPES, '/api/v2/clients/leaky']) {
        const res = await send('GET', url, 'read:client_summary');
        assert.equal(res.statusCode, 200, res.body);
        for (const client of clientsOf(res.json())) {
          assert.deepEqual(Object.keys(client).sort(), ['app_type', 'client_id', 'description', 'name'], url);
        }
      }
    });

    it('read:client_credentials: the credentials without the configuration; never a private key part', async () => {
      for (const url of [...LIST_SHAPES, '/api/v2/clients/leaky']) {
        const res = await send('GET', url, 'read:client_credentials');
        assert.equal(res.statusCode, 200, res.body);
        for (const client of clientsOf(res.json())) {
          assert.deepEqual(Object.keys(client).sort(), [...SUMMARY_FIELDS, ...CREDENTIALS].sort(), url);
          assert.deepEqual(client.signing_keys, [{ cert: 'cert', pkcs7: 'pkcs7', subject: 'deprecated' }]);
        }
      }
    });

    it('read:client_keys: every declared field, still no private key part and nothing undeclared', async () => {
      const res = await send('GET', '/api/v2/clients/leaky', 'read:client_keys');
      const client = res.json() as Json;
      for (const field of [...CREDENTIALS, ...CONFIG_ONLY]) assert.ok(field in client, field);
      assert.ok(!('stored_only' in client) && !('signing_key' in client));
      assert.ok(!res.body.includes(`${SECRET}-private-key`) && !res.body.includes(`${SECRET}-d`), res.body);
    });

    it('PATCH with update:clients alone: the client without its credentials', async () => {
      const res = await send('PATCH', '/api/v2/clients/leaky', 'update:clients', { description: 'x' });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(!res.body.includes(SECRET), res.body);
      assert.ok('callbacks' in (res.json() as Json));
    });

    it('POST and rotate-secret answer with the secret, and still nothing undeclared', async () => {
      for (const [url, status] of [['/api/v2/clients', 201], ['/api/v2/clients/leaky/rotate-secret', 200]] as const) {
        const res = await send('POST', url, url.endsWith('rotate-secret') ? 'update:client_keys' : 'create:clients', url.endsWith('rotate-secret') ? undefined : { name: 'x' });
        assert.equal(res.statusCode, status, res.body);
        const client = res.json() as Json;
        assert.equal(client.client_secret, `${SECRET}-client-secret`);
        assert.ok(!('stored_only' in client) && !('signing_key' in client), url);
        assert.ok(!res.body.includes(`${SECRET}-private-key`) && !res.body.includes(`${SECRET}-undeclared`), url);
      }
    });
  });

  describe('through the real app, the body is what the service presents', () => {
    const present = async (id: string) => {
      const service = new ClientService(t.ctx);
      return service.present(t.tenant, await service.find(t.tenant, id), { config: true, credentials: true });
    };

    it('every member of a full client, nested members included, round-trips unchanged', async () => {
      const body = {
        name: 'Full client',
        description: 'every kind of member',
        app_type: 'regular_web',
        logo_uri: 'https://example.com/logo.png',
        callbacks: ['https://app.example.com/callback'],
        allowed_origins: ['https://app.example.com'],
        web_origins: ['https://app.example.com'],
        allowed_logout_urls: ['https://app.example.com/bye'],
        client_aliases: ['alias'],
        allowed_clients: ['other'],
        token_endpoint_auth_method: 'client_secret_post',
        oidc_logout: { backchannel_logout_urls: ['https://app.example.com/logout'], custom: { nested: [1, 'two', null] } },
        oidc_backchannel_logout: { backchannel_logout_urls: ['https://app.example.com/legacy-logout'] },
        jwt_configuration: { lifetime_in_seconds: 60, alg: 'RS256', scopes: { read: ['a'] }, custom: true },
        encryption_key: { pub: 'pub', cert: 'cert', subject: '/CN=tenant.test', extra: 1 },
        addons: { sharepoint: { url: 'https://sp.example.com/', external_url: ['https://a.example.com', 'https://b.example.com'] }, aws: { principal: 'p', custom: 'kept' } },
        client_metadata: { plan: 'gold' },
        mobile: { android: { app_package_name: 'com.example.app', sha256_cert_fingerprints: ['AB:CD'] }, ios: { team_id: 'T', app_bundle_identifier: 'b' } },
        refresh_token: { rotation_type: 'rotating', expiration_type: 'expiring', leeway: 5, token_lifetime: 100, policies: [{ audience: 'https://api', scope: ['read'] }] },
        session_transfer: { can_create_session_transfer_token: true, allowed_authentication_methods: ['cookie'], enforce_device_binding: 'asn' },
        client_authentication_methods: { private_key_jwt: { credentials: [{ credential_type: 'public_key', name: 'key 1', pem: generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString() }] } },
        signed_request_object: { required: true, credentials: [] },
        token_vault_privileged_access: { credentials: [], ip_allowlist: ['10.0.0.0/8'] },
        token_exchange: { allow_any_profile_of_type: ['on_behalf_of_token_exchange'] },
        token_quota: { client_credentials: { enforce: true, per_day: 100 } },
        par_request_expiry: 60,
        compliance_level: 'none',
        organization_discovery_methods: ['email'],
        async_approval_notification_channels: ['email'],
      };
      const created = await t.management('POST', '/api/v2/clients', { body });
      assert.equal(created.statusCode, 201, created.body);
      const id = (created.json() as Json).client_id as string;
      const got = await t.management('GET', `/api/v2/clients/${id}`);
      assert.equal(got.statusCode, 200, got.body);
      const expected = await present(id);
      assert.deepEqual(got.json(), expected);
      assert.deepEqual(created.json(), { ...expected, client_secret: (created.json() as Json).client_secret });
      // Stored, but not a member of the document's Client: not sent.
      assert.ok(!('oidc_backchannel_logout' in (got.json() as Json)));
      for (const key of Object.keys(body)) if (key !== 'oidc_backchannel_logout') assert.ok(key in expected, key);
      assert.deepEqual((got.json() as Json).addons, body.addons);
      // Inline credentials are registered and answered as references.
      const methods = (got.json() as Json).client_authentication_methods as { private_key_jwt: { credentials: { id: string }[] } };
      assert.equal(methods.private_key_jwt.credentials.length, 1);
      assert.match(methods.private_key_jwt.credentials[0]!.id, /^cred_/);
      assert.deepEqual(Object.keys(methods.private_key_jwt.credentials[0]!), ['id']);
    });

    it("members are written in the order of the service's raw list responses (wire notes §5)", async () => {
      const [client] = (await t.management('GET', '/api/v2/clients?per_page=1')).json() as Json[];
      const recorded = ['tenant', 'global', 'is_token_endpoint_ip_header_trusted', 'name', 'description', 'organization_usage', 'is_first_party'];
      assert.deepEqual(Object.keys(client!).slice(0, recorded.length), recorded);
      const keys = Object.keys(client!);
      assert.ok(keys.indexOf('signing_keys') < keys.indexOf('client_id') && keys.indexOf('client_id') < keys.indexOf('client_secret'));
    });

    it('a member updated to null is answered as null, not as "" or {}', async () => {
      const nullable = Object.entries((UpdateClientBody as unknown as { properties: Record<string, { type?: unknown }> }).properties)
        .filter(([, member]) => Array.isArray(member.type) && member.type.includes('null'))
        .map(([key]) => key);
      assert.ok(nullable.length > 15, nullable.join());
      const created = await t.management('POST', '/api/v2/clients', { body: { name: 'Nulls' } });
      const id = (created.json() as Json).client_id as string;
      const patched = await t.management('PATCH', `/api/v2/clients/${id}`, { body: Object.fromEntries(nullable.map((key) => [key, null])) });
      assert.equal(patched.statusCode, 200, patched.body);
      const got = (await t.management('GET', `/api/v2/clients/${id}`)).json() as Json;
      for (const key of nullable) if (CLIENT_RESPONSE_FIELDS.includes(key)) assert.equal(got[key], null, key);
      assert.deepEqual(got, await present(id));
      assert.deepEqual(patched.json(), got);
    });
  });

  describe('the field list derives from the generated response schema', () => {
    it('`fields` accepts the response Client\'s members and the legacy names, which no response carries', () => {
      assert.equal(CLIENT_RESPONSE_FIELDS.length, 63);
      assert.deepEqual([...CLIENT_FIELDS], [...CLIENT_RESPONSE_FIELDS, ...LEGACY_CLIENT_FIELDS]);
      for (const legacy of LEGACY_CLIENT_FIELDS) assert.ok(!CLIENT_RESPONSE_FIELDS.includes(legacy), legacy);
    });

    it("the spec's visibility lists (Authentication, item 3) name fields of the schema or legacy names", () => {
      // Spec, Authentication part, item 3, as written there.
      const spec = {
        summary: ['client_id', 'app_type', 'name', 'description'],
        config: [
          'callbacks', 'oidc_logout', 'allowed_origins', 'web_origins', 'tenant', 'global', 'config_route', 'callback_url_template',
          'jwt_configuration', 'api_type', 'logo_uri', 'allowed_clients', 'owners', 'custom_login_page', 'custom_login_page_off', 'sso',
          'addons', 'form_template', 'custom_login_page_codeview', 'resource_servers', 'client_metadata', 'mobile', 'allowed_logout_urls',
          'token_endpoint_auth_method', 'is_first_party', 'oidc_conformant', 'is_token_endpoint_ip_header_trusted', 'initiate_login_uri',
          'grant_types', 'refresh_token', 'organization_usage', 'organization_require_behavior',
        ],
        credentials: ['encryption_key', 'client_secret', 'client_authentication_methods', 'signing_key'],
      };
      for (const field of Object.values(spec).flat()) assert.ok(CLIENT_FIELDS.has(field), field);
      const summary = { config: false, credentials: false };
      const config = { config: true, credentials: false };
      const credentials = { config: false, credentials: true };
      for (const field of spec.summary) assert.ok(canRead(field, summary), field);
      for (const field of spec.config) assert.ok(canRead(field, config) && !canRead(field, summary) && !canRead(field, credentials), field);
      for (const field of spec.credentials) assert.ok(canRead(field, credentials) && !canRead(field, config), field);
      // Every credential field the domain names is in the schema, but the legacy signing_key.
      assert.deepEqual([...CREDENTIAL_FIELDS].filter((f) => !CLIENT_RESPONSE_FIELDS.includes(f)), ['signing_key']);
      assert.deepEqual([...SUMMARY_FIELDS].filter((f) => !CLIENT_RESPONSE_FIELDS.includes(f)), []);
    });

    it('each level of access serialises with exactly the fields it may read', () => {
      for (const config of [false, true]) {
        for (const credentials of [false, true]) {
          const access = { config, credentials };
          const schemas = clientSchemas(access);
          const members = Object.keys((schemas.client as unknown as { properties: Json }).properties);
          assert.deepEqual(members, CLIENT_RESPONSE_FIELDS.filter((f) => canRead(f, access)), JSON.stringify(access));
          assert.equal((schemas.client as unknown as Json).additionalProperties, false);
          for (const shape of [schemas.array, schemas.offset, schemas.checkpoint]) assert.ok(!JSON.stringify(shape).includes('"anyOf"'));
        }
      }
    });
  });
});
