/**
 * /api/v2/clients writes through the real app and database: one test per rule
 * of the specification's Client table (and its nested tables) and Limits part,
 * each with failing inputs (400, `invalid_body`, the exact message) and passing
 * inputs at the boundary; then create, get, update, rotate-secret and delete.
 *
 * Messages follow the service's format (management-api-wire-notes §2):
 *   Payload validation error: '<z-schema wording>' on property <path> (<description>).
 * The descriptions are the published request schemas' own, written out here so
 * a changed description shows up as a failing test.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';

type Json = Record<string, unknown>;

const chars = (n: number, c = 'a') => c.repeat(n);

/** The service's validation message (z-schema wording inside). */
function payloadError(inner: string, property?: string, description?: string): string {
  const where = property === undefined ? '' : ` on property ${property}${description === undefined ? '' : ` (${description})`}`;
  return `Payload validation error: '${inner}'${where}.`;
}

/** Descriptions of the create schema (CreateClientRequestContent). */
const D = {
  name: 'Name of this client (min length: 1 character, does not allow `<` or `>`).',
  description: 'Free text description of this client (max length: 140 characters).',
  client_metadata:
    'Metadata associated with the client, in the form of an object with string values (max 255 chars).  Maximum of 10 metadata properties allowed.  Field names (max 255 chars) are alphanumeric and may only include the following special characters:  :,-+=_*?"/\\()<>@\t[Tab] [Space]',
  client_metadata_value: 'Client metadata value (max 255 chars).',
  addons: 'Addons enabled for this client and their associated configurations.',
  organization_usage: 'Defines how to proceed during an authentication transaction with regards an organization. Can be `deny` (default), `allow` or `require`.',
  organization_require_behavior:
    "Defines how to proceed during an authentication transaction when `client.organization_usage: 'require'`. Can be `no_prompt` (default), `pre_login_prompt` or `post_login_prompt`. `post_login_prompt` requires `oidc_conformant: true`.",
  par_request_expiry: 'Specifies how long, in seconds, a Pushed Authorization Request URI remains valid',
  refresh_token: 'Refresh token configuration',
  token_lifetime: 'Period (in seconds) for which refresh tokens will remain valid',
  idle_token_lifetime: 'Period (in seconds) for which refresh tokens will remain valid without use',
  leeway: 'Period in seconds where the previous refresh token can be exchanged without triggering breach detection',
  policies:
    'A collection of policies governing multi-resource refresh token exchange (MRRT), defining how refresh tokens can be used across different resource servers',
  native_social_login: 'Configure native social settings',
  fedcm_login: 'Configure FedCM login settings for New Universal Login',
  client_authentication_methods: 'Defines client authentication methods.',
  initiate_login_uri: 'Initiate login uri, must be https',
  third_party_security_mode:
    'Security mode for third-party clients. `strict` enforces <a href="https://auth0.com/docs/get-started/applications/third-party-applications/security-controls">enhanced security controls</a>: OAuth 2.1 alignment, explicit API authorization, and a curated set of supported features. `permissive` preserves <a href="https://auth0.com/docs/get-started/applications/third-party-applications/permissive-mode">pre-existing behavior</a> and is only available to tenants with prior third-party client usage. Set on creation and cannot be modified.',
  redirection_policy:
    'Controls whether Auth0 redirects users to the application\'s callback URL on authentication errors or in email verification flows. `open_redirect_protection` shows an error page instead of redirecting, and hides the callback domain from email templates. `allow_always` enables standard redirect behavior. Defaults to `open_redirect_protection` for third-party clients. Only applies when `is_first_party` is `false` and `third_party_security_mode` is `strict`. To learn more, read <a href="https://auth0.com/docs/get-started/applications/third-party-applications/security-controls#redirect-protection">Redirect protection</a>.',
  session_transfer: 'Native to Web SSO Configuration',
  enforce_device_binding:
    "Indicates whether device binding security should be enforced for the app. If set to 'ip', the app will enforce device binding by IP, meaning that consumption of Session Transfer Token must be done from the same IP of the issuer. Likewise, if set to 'asn', device binding is enforced by ASN, meaning consumption of Session Transfer Token must be done from the same ASN as the issuer. If set to 'none', device binding is not enforced. Usually configured in the web application. Default value is `ip`.",
  default_organization: 'Defines the default Organization ID and flows',
  default_organization_id: 'The default Organization ID to be used',
  express_configuration: 'Application specific configuration for use with the OIN Express Configuration feature.',
  oin_submission_id: 'The identifier of the published application in the OKTA OIN.',
  admin_login_domain:
    'This is the domain that admins are expected to log in via for authenticating for express configuration. It can be either the canonical domain or a registered custom domain.',
  signed_request_object: 'JWT-secured Authorization Requests (JAR) settings.',
  signed_request_object_required: 'Indicates whether the JAR requests are mandatory',
  token_exchange: 'Configuration for token exchange.',
  token_exchange_type:
    'Token exchange type. `on_behalf_of_token_exchange`: enables On-Behalf-Of token exchange (Generally Available). `custom_authentication`: enables custom token exchange profiles (Early Access, requires entitlement).',
  backchannel_logout_urls:
    'Comma-separated list of URLs that are valid to call back from Auth0 for OIDC backchannel logout. Currently only one URL is allowed.',
  organization_discovery_methods:
    'Defines the available methods for organization discovery during the `pre_login_prompt`. Users can discover their organization either by `email`, `organization_name` or both.',
  organization_discovery_method:
    'Method for discovering organizations during the `pre_login_prompt`. `email` allows users to find their organization by entering their email address and performing domain matching, while `organization_name` requires users to enter the organization name directly. These methods can be combined.',
  async_approval_notification_channels:
    'Array of notification channels for contacting the user when their approval is required. Valid values are `guardian-push`, `email`.',
  app_type: 'The type of application this client represents',
  token_endpoint_auth_method:
    'Defines the requested authentication method for the token endpoint. Can be `none` (public client without a client secret), `client_secret_post` (client uses HTTP POST parameters), or `client_secret_basic` (client uses HTTP Basic).',
  compliance_level: "Defines the compliance level for this client, which may restrict it's capabilities",
  token_quota_client_credentials: 'The token quota configuration',
  my_organization_configuration: 'Configuration related to the My Organization Configuration for the client.',
  token_vault_privileged_access: 'Settings for Token Vault Privileged Access.',
  jwt_lifetime_in_seconds: 'Number of seconds the JWT will be valid for (affects `exp` claim).',
  jwt_alg: 'Algorithm used to sign JWTs. Can be `HS256` (default) or `RS256`. `PS256` available via addon.',
  logo_uri: 'URL of the logo to display for this client. Recommended size is 150x150 pixels.',
} as const;

/** Descriptions of the update schema where they differ from the create schema's. */
const U = {
  name: "The name of the client. Must contain at least one character. Does not allow '<' or '>'.",
  description: 'Free text description of the purpose of the Client. (Max character length: <code>140</code>)',
} as const;

const ADDONS = [
  'aws', 'azure_blob', 'azure_sb', 'rms', 'mscrm', 'slack', 'sentry', 'box', 'cloudbees', 'concur', 'dropbox', 'echosign', 'egnyte',
  'firebase', 'newrelic', 'office365', 'salesforce', 'salesforce_api', 'salesforce_sandbox_api', 'samlp', 'layer', 'sap_api',
  'sharepoint', 'springcm', 'wams', 'wsfed', 'zendesk', 'zoom', 'sso_integration', 'oag',
];

/** Every addon the Client table lists, each with the members its (unspecified) inner schema requires. */
const ALL_ADDONS: Json = {
  ...Object.fromEntries(ADDONS.map((a) => [a, {}])),
  rms: { url: 'https://rms.example.com/' },
  mscrm: { url: 'https://crm.example.com/' },
  slack: { team: 'example' },
  layer: { providerId: 'provider', keyId: 'key', privateKey: 'private' },
};

const APP_TYPES = [
  'native', 'spa', 'regular_web', 'non_interactive', 'resource_server', 'express_configuration', 'rms', 'box', 'cloudbees', 'concur',
  'dropbox', 'mscrm', 'echosign', 'egnyte', 'newrelic', 'office365', 'salesforce', 'sentry', 'sharepoint', 'slack', 'springcm',
  'zendesk', 'zoom', 'sso_integration', 'oag',
];

/** The grant types the service's document lists for `grant_types`. */
const GRANT_TYPES = [
  'authorization_code', 'implicit', 'refresh_token', 'client_credentials', 'password', 'http://auth0.com/oauth/grant-type/password-realm',
  'http://auth0.com/oauth/grant-type/mfa-oob', 'http://auth0.com/oauth/grant-type/mfa-otp', 'http://auth0.com/oauth/grant-type/mfa-recovery-code',
  'urn:openid:params:grant-type:ciba', 'urn:ietf:params:oauth:grant-type:device_code',
  'urn:auth0:params:oauth:grant-type:token-exchange:federated-connection-access-token',
];

const metadata = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, 'value']));

const ROTATING = { rotation_type: 'rotating', expiration_type: 'expiring' } as const;

const EXPRESS = {
  initiate_login_uri_template: 'https://{organization_name}.example.com/login',
  user_attribute_profile_id: 'uap_1234567890',
  connection_profile_id: 'cop_1234567890',
  enable_client: true,
  enable_organization: false,
  vendor_oin_client_id: '0oa1234567890',
  admin_login_domain: 'login.example.com',
};

/** A real RSA public key: inline credentials are parsed and stored. */
const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('/api/v2/clients', () => {
  let t: TestApp;
  let token: string;
  /** A client the PATCH cases update. */
  let target: string;

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
    const res = await t.management('POST', '/api/v2/clients', { token, body: { name: 'patch target' } });
    assert.equal(res.statusCode, 201, res.body);
    target = (res.json() as Json).client_id as string;
    // The profiles EXPRESS names: a client may name only profiles of its tenant.
    const now = new Date().toISOString();
    assert.ok(await t.ctx.stores.connectionProfiles.create({ tenant_id: t.tenant.id, id: EXPRESS.connection_profile_id, name: 'express', profile: {}, created_at: now, updated_at: now }));
    const attributes = { email: { description: 'Email', label: 'Email', profile_required: true, auth0_mapping: 'email' } };
    assert.ok(await t.ctx.stores.userAttributeProfiles.create({ tenant_id: t.tenant.id, id: EXPRESS.user_attribute_profile_id, name: 'express', user_id: null, user_attributes: attributes, created_at: now, updated_at: now }));
  });
  after(() => t.close());

  const post = (body: unknown) => t.management('POST', '/api/v2/clients', { token, body });
  const clientTotal = async () => ((await t.management('GET', '/api/v2/clients?include_totals=true', { token })).json() as { total: number }).total;
  const patch = (id: string, body: unknown) => t.management('PATCH', `/api/v2/clients/${id}`, { token, body });

  /**
   * The mismatches of the rule being checked: every case of a rule runs, and
   * the rule's test fails once at the end listing each request that went wrong.
   */
  let mismatches: string[] = [];

  function rule(check: () => Promise<void>): () => Promise<void> {
    return async () => {
      mismatches = [];
      await check();
      if (mismatches.length) assert.fail(`${mismatches.length} case(s) failed:\n\n${mismatches.join('\n\n')}`);
    };
  }

  function expectRefused(request: string, res: LightMyRequestResponse, message: string): void {
    const expected = { statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_body' };
    let actual: unknown = res.body;
    try {
      actual = res.json();
    } catch {
      // not JSON: reported as the raw body
    }
    if (res.statusCode !== 400 || !isDeepStrictEqual(actual, expected)) {
      mismatches.push(`${request}\n  expected: 400 ${JSON.stringify(expected)}\n  actual:   ${res.statusCode} ${res.body}`);
    }
  }

  function expectAccepted(request: string, res: LightMyRequestResponse, status: number, members: Json): Json | undefined {
    if (res.statusCode !== status) {
      mismatches.push(`${request}\n  expected: ${status}\n  actual:   ${res.statusCode} ${res.body}`);
      return undefined;
    }
    const client = res.json() as Json;
    for (const [key, value] of Object.entries(members)) {
      if (!isDeepStrictEqual(client[key], value)) {
        mismatches.push(`${request}\n  expected ${key}: ${JSON.stringify(value)}\n  actual ${key}:   ${JSON.stringify(client[key])}`);
      }
    }
    return client;
  }

  /** POST /clients with `members` (and a name unless given) is refused with `message`. */
  async function refuses(members: Json, message: string): Promise<void> {
    const body = { name: 'x', ...members };
    expectRefused(`POST /clients ${JSON.stringify(body)}`, await post(body), message);
  }

  /** POST /clients with `members` is 201 and the client carries each member as sent. */
  async function accepts(members: Json): Promise<Json | undefined> {
    const body = { name: 'x', ...members };
    return expectAccepted(`POST /clients ${JSON.stringify(body)}`, await post(body), 201, members);
  }

  /** POST /clients with exactly `body` (no name added) is refused with `message`. */
  async function refusesBody(body: unknown, message: string): Promise<void> {
    expectRefused(`POST /clients ${JSON.stringify(body)}`, await post(body), message);
  }

  /** A client for the update cases; its creation is not what the test checks. */
  async function mustCreate(body: Json): Promise<Json> {
    const res = await post(body);
    assert.equal(res.statusCode, 201, res.body);
    return res.json() as Json;
  }

  async function refusesUpdate(members: Json, message: string, id = target): Promise<void> {
    expectRefused(`PATCH /clients/{id} ${JSON.stringify(members)}`, await patch(id, members), message);
  }

  async function acceptsUpdate(members: Json, id = target): Promise<Json | undefined> {
    return expectAccepted(`PATCH /clients/{id} ${JSON.stringify(members)}`, await patch(id, members), 200, members);
  }

  describe('rules of the Client table and the Limits part', () => {
    it('name: required, min length 1, no < or >', rule(async () => {
      await refusesBody({ description: 'no name' }, payloadError('Missing required property: name'));
      await refuses({ name: '' }, payloadError('String is too short (0 chars), minimum 1', 'name', D.name));
      await refuses({ name: 'a<b' }, payloadError('String does not match pattern ^[^<>]+$: a<b', 'name', D.name));
      await refuses({ name: 'a>b' }, payloadError('String does not match pattern ^[^<>]+$: a>b', 'name', D.name));
      await refusesUpdate({ name: '' }, payloadError('String is too short (0 chars), minimum 1', 'name', U.name));
      await refusesUpdate({ name: '<b>' }, payloadError('String does not match pattern ^[^<>]+$: <b>', 'name', U.name));
      await accepts({ name: 'a' });
      await accepts({ name: 'My app & co. (staging) "quoted"' });
      await acceptsUpdate({ name: 'b' });
    }));

    it('description: max 140 characters (140 passes, 141 fails)', rule(async () => {
      await refuses({ description: chars(141) }, payloadError('String is too long (141 chars), maximum 140', 'description', D.description));
      await refusesUpdate({ description: chars(141) }, payloadError('String is too long (141 chars), maximum 140', 'description', U.description));
      await accepts({ description: chars(140) });
      await accepts({ description: '' });
      await acceptsUpdate({ description: chars(140) });
    }));

    it('client_metadata: at most 10 properties (10 pass, 11 fail)', rule(async () => {
      await refuses({ client_metadata: metadata(11) }, payloadError('Too many properties defined (11), maximum 10', 'client_metadata', D.client_metadata));
      await refusesUpdate({ client_metadata: metadata(11) }, payloadError('Too many properties defined (11), maximum 10', 'client_metadata', D.client_metadata));
      await accepts({ client_metadata: metadata(10) });
      await accepts({ client_metadata: {} });
      await acceptsUpdate({ client_metadata: metadata(10) });
    }));

    it('client_metadata: values are strings of at most 255 characters', rule(async () => {
      await refuses(
        { client_metadata: { key: chars(256) } },
        payloadError('String is too long (256 chars), maximum 255', 'client_metadata.key', D.client_metadata_value),
      );
      await refuses(
        { client_metadata: { key: 5 } },
        payloadError('Expected type string but found type integer', 'client_metadata.key', D.client_metadata_value),
      );
      await refuses(
        { client_metadata: 'key=value' },
        payloadError('Expected type object but found type string', 'client_metadata', D.client_metadata),
      );
      await refusesUpdate(
        { client_metadata: { key: chars(256) } },
        payloadError('String is too long (256 chars), maximum 255', 'client_metadata.key', D.client_metadata_value),
      );
      await accepts({ client_metadata: { key: chars(255) } });
      await accepts({ client_metadata: { key: '' } });
    }));

    it('client_metadata: names of at most 255 characters', rule(async () => {
      // A name's error is reported on client_metadata, which has a description.
      await refuses(
        { client_metadata: { [chars(256)]: 'value' } },
        payloadError('String is too long (256 chars), maximum 255', 'client_metadata', D.client_metadata),
      );
      await accepts({ client_metadata: { [chars(255)]: 'value' } });
    }));

    it('client_metadata: names are alphanumerics and :,-+=_*?"/\\()<>@ tab space only', rule(async () => {
      const pattern = '^[A-Za-z0-9:,\\-+=_*?"/\\\\()<>@\\t ]+$';
      for (const name of ['a!b', 'a.b', 'ä', 'a\nb']) {
        await refuses(
          { client_metadata: { [name]: 'value' } },
          payloadError(`String does not match pattern ${pattern}: ${name}`, 'client_metadata', D.client_metadata),
        );
      }
      await accepts({ client_metadata: { 'Az09:,-+=_*?"/\\()<>@\t x': 'value' } });
    }));

    it('addons: only the listed members', rule(async () => {
      await refuses({ addons: { github: {} } }, payloadError('Additional properties not allowed: github', 'addons', D.addons));
      await refuses({ addons: { aws: {}, github: {}, gitlab: {} } }, payloadError('Additional properties not allowed: github,gitlab', 'addons', D.addons));
      await refusesUpdate({ addons: { github: {} } }, payloadError('Additional properties not allowed: github', 'addons', D.addons));
      await accepts({ addons: ALL_ADDONS });
      await accepts({ addons: {} });
    }));

    it('app_type: one of the listed values', rule(async () => {
      await refuses({ app_type: 'desktop' }, payloadError('No enum match for: desktop', 'app_type', D.app_type));
      await refusesUpdate({ app_type: 'desktop' }, payloadError('No enum match for: desktop', 'app_type', D.app_type));
      for (const app_type of APP_TYPES) await accepts({ app_type });
    }));

    it("grant_types: only the service's grant types; a refused write stores nothing", rule(async () => {
      const count = await clientTotal();
      const unchanged = (await t.management('GET', `/api/v2/clients/${target}`, { token })).json() as Json;
      await refuses({ grant_types: ['bogus'] }, payloadError('No enum match for: bogus', 'grant_types[0]'));
      await refuses({ grant_types: ['client_credentials', 'urn:example:nope'] }, payloadError('No enum match for: urn:example:nope', 'grant_types[1]'));
      await refusesUpdate({ grant_types: ['bogus'] }, payloadError('No enum match for: bogus', 'grant_types[0]'));
      assert.equal(await clientTotal(), count, 'no client was created');
      assert.deepEqual((await t.management('GET', `/api/v2/clients/${target}`, { token })).json(), unchanged, 'the client was not changed');
      await accepts({ grant_types: [...GRANT_TYPES] });
      await accepts({ grant_types: [] });
      const created = await mustCreate({ name: 'grant types' });
      await acceptsUpdate({ grant_types: ['authorization_code', 'refresh_token'] }, created.client_id as string);
    }));

    it('token_endpoint_auth_method: none, client_secret_post or client_secret_basic', rule(async () => {
      await refuses(
        { token_endpoint_auth_method: 'private_key_jwt' },
        payloadError('No enum match for: private_key_jwt', 'token_endpoint_auth_method', D.token_endpoint_auth_method),
      );
      for (const method of ['none', 'client_secret_post', 'client_secret_basic']) await accepts({ token_endpoint_auth_method: method });
    }));

    it('organization_usage: deny, allow or require', rule(async () => {
      await refuses({ organization_usage: 'sometimes' }, payloadError('No enum match for: sometimes', 'organization_usage', D.organization_usage));
      for (const usage of ['deny', 'allow', 'require']) await accepts({ organization_usage: usage });
    }));

    it('organization_require_behavior: no_prompt, pre_login_prompt or post_login_prompt', rule(async () => {
      await refuses(
        { organization_require_behavior: 'ask' },
        payloadError('No enum match for: ask', 'organization_require_behavior', D.organization_require_behavior),
      );
      await accepts({ organization_require_behavior: 'no_prompt' });
      await accepts({ organization_require_behavior: 'pre_login_prompt' });
    }));

    it('organization_require_behavior post_login_prompt requires oidc_conformant true, on create and on update', rule(async () => {
      const message = payloadError(
        'post_login_prompt requires oidc_conformant to be true',
        'organization_require_behavior',
        D.organization_require_behavior,
      );
      await refuses({ organization_require_behavior: 'post_login_prompt' }, message);
      await refuses({ organization_require_behavior: 'post_login_prompt', oidc_conformant: false }, message);
      await accepts({ organization_require_behavior: 'post_login_prompt', oidc_conformant: true });
      await accepts({ organization_require_behavior: 'pre_login_prompt', oidc_conformant: false });
      // An update that would break the rule: turning oidc_conformant off under post_login_prompt.
      const id = (await mustCreate({ name: 'x', organization_require_behavior: 'post_login_prompt', oidc_conformant: true })).client_id as string;
      await refusesUpdate({ oidc_conformant: false }, message, id);
      // Or asking for post_login_prompt on a client that is not OIDC conformant.
      const legacy = (await mustCreate({ name: 'x', oidc_conformant: false })).client_id as string;
      await refusesUpdate({ organization_require_behavior: 'post_login_prompt' }, message, legacy);
      // Both at once, or each in the right order, pass.
      await acceptsUpdate({ organization_require_behavior: 'post_login_prompt', oidc_conformant: true }, legacy);
      await acceptsUpdate({ organization_require_behavior: 'no_prompt', oidc_conformant: false }, id);
    }));

    it('organization_discovery_methods: at least 1 item of email, organization_name', rule(async () => {
      await refuses(
        { organization_discovery_methods: [] },
        payloadError('Array is too short (0), minimum 1', 'organization_discovery_methods', D.organization_discovery_methods),
      );
      await refuses(
        { organization_discovery_methods: ['phone'] },
        payloadError('No enum match for: phone', 'organization_discovery_methods[0]', D.organization_discovery_method),
      );
      await refusesUpdate(
        { organization_discovery_methods: [] },
        payloadError('Array is too short (0), minimum 1', 'organization_discovery_methods', D.organization_discovery_methods),
      );
      await accepts({ organization_discovery_methods: ['email'] });
      await accepts({ organization_discovery_methods: ['email', 'organization_name'] });
    }));

    it('async_approval_notification_channels: at least 1 item of guardian-push, email', rule(async () => {
      await refuses(
        { async_approval_notification_channels: [] },
        payloadError('Array is too short (0), minimum 1', 'async_approval_notification_channels', D.async_approval_notification_channels),
      );
      await refuses(
        { async_approval_notification_channels: ['sms'] },
        payloadError('No enum match for: sms', 'async_approval_notification_channels[0]'),
      );
      await accepts({ async_approval_notification_channels: ['email'] });
      await accepts({ async_approval_notification_channels: ['guardian-push', 'email'] });
    }));

    it('par_request_expiry: 10 to 600 seconds, or null (9, 10, 600, 601, null)', rule(async () => {
      await refuses({ par_request_expiry: 9 }, payloadError('Value 9 is less than minimum 10', 'par_request_expiry', D.par_request_expiry));
      await refuses({ par_request_expiry: 601 }, payloadError('Value 601 is greater than maximum 600', 'par_request_expiry', D.par_request_expiry));
      await refuses({ par_request_expiry: 60.5 }, payloadError('Expected type integer,null but found type number', 'par_request_expiry', D.par_request_expiry));
      await refusesUpdate({ par_request_expiry: 601 }, payloadError('Value 601 is greater than maximum 600', 'par_request_expiry', D.par_request_expiry));
      await accepts({ par_request_expiry: 10 });
      await accepts({ par_request_expiry: 600 });
      await accepts({ par_request_expiry: null });
      await acceptsUpdate({ par_request_expiry: 10 });
      await acceptsUpdate({ par_request_expiry: null });
    }));

    it('refresh_token.token_lifetime: 1 to 157788000 seconds', rule(async () => {
      await refuses(
        { refresh_token: { ...ROTATING, token_lifetime: 0 } },
        payloadError('Value 0 is less than minimum 1', 'refresh_token.token_lifetime', D.token_lifetime),
      );
      await refuses(
        { refresh_token: { ...ROTATING, token_lifetime: 157_788_001 } },
        payloadError('Value 157788001 is greater than maximum 157788000', 'refresh_token.token_lifetime', D.token_lifetime),
      );
      await refusesUpdate(
        { refresh_token: { ...ROTATING, token_lifetime: 0 } },
        payloadError('Value 0 is less than minimum 1', 'refresh_token.token_lifetime', D.token_lifetime),
      );
      await accepts({ refresh_token: { ...ROTATING, token_lifetime: 1 } });
      await accepts({ refresh_token: { ...ROTATING, token_lifetime: 157_788_000 } });
    }));

    it('refresh_token.idle_token_lifetime: min 1 second', rule(async () => {
      await refuses(
        { refresh_token: { ...ROTATING, idle_token_lifetime: 0 } },
        payloadError('Value 0 is less than minimum 1', 'refresh_token.idle_token_lifetime', D.idle_token_lifetime),
      );
      await accepts({ refresh_token: { ...ROTATING, idle_token_lifetime: 1 } });
    }));

    it('refresh_token.leeway: min 0', rule(async () => {
      await refuses({ refresh_token: { ...ROTATING, leeway: -1 } }, payloadError('Value -1 is less than minimum 0', 'refresh_token.leeway', D.leeway));
      await accepts({ refresh_token: { ...ROTATING, leeway: 0 } });
    }));

    it('refresh_token: rotation_type and expiration_type required, no other members, or null', rule(async () => {
      await refuses(
        { refresh_token: { expiration_type: 'expiring' } },
        payloadError('Missing required property: rotation_type', 'refresh_token', D.refresh_token),
      );
      await refuses(
        { refresh_token: { rotation_type: 'rotating' } },
        payloadError('Missing required property: expiration_type', 'refresh_token', D.refresh_token),
      );
      await refuses(
        { refresh_token: { ...ROTATING, lifetime: 60 } },
        payloadError('Additional properties not allowed: lifetime', 'refresh_token', D.refresh_token),
      );
      await accepts({ refresh_token: { ...ROTATING } });
      await accepts({ refresh_token: { rotation_type: 'non-rotating', expiration_type: 'non-expiring', infinite_token_lifetime: true } });
      await accepts({ refresh_token: null });
    }));

    it('refresh_token.policies: at least 1 item, or null', rule(async () => {
      await refuses(
        { refresh_token: { ...ROTATING, policies: [] } },
        payloadError('Array is too short (0), minimum 1', 'refresh_token.policies', D.policies),
      );
      await accepts({ refresh_token: { ...ROTATING, policies: [{ audience: 'https://api.example.com/', scope: ['read:x'] }] } });
      await accepts({ refresh_token: { ...ROTATING, policies: null } });
    }));

    it('native_social_login: at least 1 member of apple, facebook, google; no others', rule(async () => {
      await refuses({ native_social_login: {} }, payloadError('Too few properties defined (0), minimum 1', 'native_social_login', D.native_social_login));
      await refuses(
        { native_social_login: { twitter: { enabled: true } } },
        payloadError('Additional properties not allowed: twitter', 'native_social_login', D.native_social_login),
      );
      await accepts({ native_social_login: { apple: { enabled: true } } });
      await accepts({ native_social_login: { apple: { enabled: true }, facebook: { enabled: false }, google: { enabled: true } } });
    }));

    it('fedcm_login: at least 1 member, google', rule(async () => {
      await refuses({ fedcm_login: {} }, payloadError('Too few properties defined (0), minimum 1', 'fedcm_login', D.fedcm_login));
      await refuses({ fedcm_login: { apple: {} } }, payloadError('Additional properties not allowed: apple', 'fedcm_login', D.fedcm_login));
      await accepts({ fedcm_login: { google: { is_enabled: true } } });
    }));

    it('client_authentication_methods: exactly one member of private_key_jwt, tls_client_auth, self_signed_tls_client_auth; or null', rule(async () => {
      await refuses(
        { client_authentication_methods: {} },
        payloadError('Too few properties defined (0), minimum 1', 'client_authentication_methods', D.client_authentication_methods),
      );
      await refuses(
        { client_authentication_methods: { private_key_jwt: { credentials: [] }, tls_client_auth: { credentials: [] } } },
        payloadError('Too many properties defined (2), maximum 1', 'client_authentication_methods', D.client_authentication_methods),
      );
      await refuses(
        { client_authentication_methods: { client_secret_jwt: {} } },
        payloadError('Additional properties not allowed: client_secret_jwt', 'client_authentication_methods', D.client_authentication_methods),
      );
      await refusesUpdate(
        { client_authentication_methods: { private_key_jwt: { credentials: [] }, tls_client_auth: { credentials: [] } } },
        payloadError('Too many properties defined (2), maximum 1', 'client_authentication_methods', D.client_authentication_methods),
      );
      await accepts({ client_authentication_methods: { private_key_jwt: { credentials: [] } } });
      await accepts({ client_authentication_methods: { tls_client_auth: { credentials: [] } } });
      await accepts({ client_authentication_methods: { self_signed_tls_client_auth: { credentials: [] } } });
      await acceptsUpdate({ client_authentication_methods: null });
      // The Client table: "object or null".
      await accepts({ client_authentication_methods: null });
    }));

    it('initiate_login_uri: https (placeholders allowed) or empty', rule(async () => {
      const format = 'absolute-https-uri-with-placeholders-or-empty';
      await refuses(
        { initiate_login_uri: 'http://example.com/login' },
        payloadError(`Object didn't pass validation for format ${format}: http://example.com/login`, 'initiate_login_uri', D.initiate_login_uri),
      );
      await refuses(
        { initiate_login_uri: 'example.com/login' },
        payloadError(`Object didn't pass validation for format ${format}: example.com/login`, 'initiate_login_uri', D.initiate_login_uri),
      );
      await refusesUpdate(
        { initiate_login_uri: 'http://example.com/login' },
        payloadError(`Object didn't pass validation for format ${format}: http://example.com/login`, 'initiate_login_uri', D.initiate_login_uri),
      );
      await accepts({ initiate_login_uri: 'https://example.com/login' });
      await accepts({ initiate_login_uri: 'https://{organization_name}.example.com/login' });
      await accepts({ initiate_login_uri: '' });
    }));

    it('callbacks, allowed_logout_urls, web_origins, allowed_origins: https, loopback http, native schemes; no script schemes, fragments, misplaced wildcards; nothing stored', rule(async () => {
      const count = await clientTotal();
      const unchanged = (await t.management('GET', `/api/v2/clients/${target}`, { token })).json() as Json;
      const refusedUrls = [
        'javascript:alert(1)',
        'JavaScript://example.com/%0aalert(1)',
        'data:text/html,<script>alert(1)</script>',
        'vbscript:msgbox(1)',
        'file:///etc/passwd',
        'http://app.example.com/callback',
        'https://app.example.com/callback#fragment',
        'https://*.com/callback',
        'https://app.*.example.com/callback',
        'https://user@app.example.com/callback',
        'com.example.app:callback',
      ];
      for (const url of refusedUrls) {
        await refuses({ callbacks: ['https://app.example.com/ok', url] }, payloadError(`Object didn't pass validation for format callback-url: ${url}`, 'callbacks[1]'));
        await refusesUpdate({ callbacks: [url] }, payloadError(`Object didn't pass validation for format callback-url: ${url}`, 'callbacks[0]'));
        for (const member of ['allowed_logout_urls', 'web_origins', 'allowed_origins']) {
          await refuses({ [member]: [url] }, payloadError(`Object didn't pass validation for format url-with-placeholders: ${url}`, `${member}[0]`));
        }
      }
      await refuses(
        { initiate_login_uri: 'https://example.com/login#x' },
        payloadError("Object didn't pass validation for format absolute-https-uri-with-placeholders-or-empty: https://example.com/login#x", 'initiate_login_uri', D.initiate_login_uri),
      );
      assert.equal(await clientTotal(), count, 'no client was created');
      assert.deepEqual((await t.management('GET', `/api/v2/clients/${target}`, { token })).json(), unchanged, 'the client was not changed');

      const acceptedUrls = [
        'https://app.example.com/callback',
        'https://app.example.com/callback?tab=1',
        'http://localhost:3000/callback',
        'http://127.0.0.1:8080/callback',
        'http://[::1]:8080/callback',
        'https://*.example.com/callback',
        'https://{organization_name}.example.com/callback',
        'com.example.app://callback',
        'com.example.app:/oauth2redirect',
      ];
      await accepts({ callbacks: acceptedUrls, allowed_logout_urls: acceptedUrls });
      await accepts({ web_origins: ['https://app.example.com', 'http://localhost:3000', 'capacitor://localhost'], allowed_origins: ['https://*.example.com'] });
    }));

    it('logo_uri: a URL or empty', rule(async () => {
      await refuses(
        { logo_uri: 'not a url' },
        payloadError("Object didn't pass validation for format absolute-uri-or-empty: not a url", 'logo_uri', D.logo_uri),
      );
      await accepts({ logo_uri: 'https://cdn.example.com/logo.png' });
      await accepts({ logo_uri: '' });
    }));

    it('third_party_security_mode: strict or permissive, settable on create only', rule(async () => {
      await refuses(
        { third_party_security_mode: 'lax' },
        payloadError('No enum match for: lax', 'third_party_security_mode', D.third_party_security_mode),
      );
      await accepts({ third_party_security_mode: 'permissive' });
      // redirection_policy: open_redirect_protection is the default only for third-party clients, so it is sent here.
      const strict = await accepts({ third_party_security_mode: 'strict', redirection_policy: 'open_redirect_protection' });
      const id = (strict ?? (await mustCreate({ name: 'x', third_party_security_mode: 'strict' }))).client_id as string;
      for (const mode of ['strict', 'permissive']) {
        await refusesUpdate({ third_party_security_mode: mode }, payloadError('Additional properties not allowed: third_party_security_mode'), id);
      }
      const got = await t.management('GET', `/api/v2/clients/${id}`, { token });
      assert.equal((got.json() as Json).third_party_security_mode, 'strict');
    }));

    it('redirection_policy: allow_always or open_redirect_protection', rule(async () => {
      await refuses({ redirection_policy: 'never' }, payloadError('No enum match for: never', 'redirection_policy', D.redirection_policy));
      await accepts({ redirection_policy: 'allow_always' });
      await accepts({ redirection_policy: 'open_redirect_protection' });
    }));

    it('compliance_level: one of the listed values or null', rule(async () => {
      await refuses({ compliance_level: 'fapi3' }, payloadError('No enum match for: fapi3', 'compliance_level', D.compliance_level));
      for (const level of ['none', 'fapi1_adv_pkj_par', 'fapi1_adv_mtls_par', 'fapi2_sp_pkj_mtls', 'fapi2_sp_mtls_mtls', null]) {
        await accepts({ compliance_level: level });
      }
    }));

    it('session_transfer: its members only, allowed_authentication_methods of cookie/query; or null', rule(async () => {
      await refuses(
        { session_transfer: { can_create_session_transfer_token: true, other: true } },
        payloadError('Additional properties not allowed: other', 'session_transfer', D.session_transfer),
      );
      await refuses(
        { session_transfer: { allowed_authentication_methods: ['header'] } },
        payloadError('No enum match for: header', 'session_transfer.allowed_authentication_methods[0]'),
      );
      await refuses(
        { session_transfer: { enforce_device_binding: 'mac' } },
        payloadError('No enum match for: mac', 'session_transfer.enforce_device_binding', D.enforce_device_binding),
      );
      await accepts({
        session_transfer: {
          can_create_session_transfer_token: true,
          enforce_cascade_revocation: true,
          allowed_authentication_methods: ['cookie', 'query'],
          enforce_device_binding: 'asn',
          allow_refresh_token: false,
          enforce_online_refresh_tokens: true,
        },
      });
      await accepts({ session_transfer: { allowed_authentication_methods: null } });
      await accepts({ session_transfer: null });
      await acceptsUpdate({ session_transfer: null });
    }));

    it('default_organization: organization_id and flows required, no other members; or null', rule(async () => {
      const org = 'org_abcdefghijklmnop';
      await refuses(
        { default_organization: { organization_id: org } },
        payloadError('Missing required property: flows', 'default_organization', D.default_organization),
      );
      await refuses(
        { default_organization: { flows: ['client_credentials'] } },
        payloadError('Missing required property: organization_id', 'default_organization', D.default_organization),
      );
      await refuses(
        { default_organization: { organization_id: org, flows: ['client_credentials'], other: 1 } },
        payloadError('Additional properties not allowed: other', 'default_organization', D.default_organization),
      );
      await refuses(
        { default_organization: { organization_id: 'acme', flows: ['client_credentials'] } },
        payloadError("Object didn't pass validation for format organization-id: acme", 'default_organization.organization_id', D.default_organization_id),
      );
      await accepts({ default_organization: { organization_id: org, flows: ['client_credentials'] } });
      await accepts({ default_organization: null });
    }));

    it('express_configuration: its required members (vendor_oin_client_id), oin_submission_id 1..200, no other members', rule(async () => {
      const withoutVendor = Object.fromEntries(Object.entries(EXPRESS).filter(([k]) => k !== 'vendor_oin_client_id'));
      await refuses(
        { express_configuration: withoutVendor },
        payloadError('Missing required property: vendor_oin_client_id', 'express_configuration', D.express_configuration),
      );
      for (const required of ['initiate_login_uri_template', 'user_attribute_profile_id', 'connection_profile_id', 'enable_client', 'enable_organization', 'admin_login_domain']) {
        await refuses(
          { express_configuration: Object.fromEntries(Object.entries(EXPRESS).filter(([k]) => k !== required)) },
          payloadError(`Missing required property: ${required}`, 'express_configuration', D.express_configuration),
        );
      }
      await refuses(
        { express_configuration: { ...EXPRESS, oin_submission_id: '' } },
        payloadError('String is too short (0 chars), minimum 1', 'express_configuration.oin_submission_id', D.oin_submission_id),
      );
      await refuses(
        { express_configuration: { ...EXPRESS, oin_submission_id: chars(201) } },
        payloadError('String is too long (201 chars), maximum 200', 'express_configuration.oin_submission_id', D.oin_submission_id),
      );
      await refuses(
        { express_configuration: { ...EXPRESS, admin_login_domain: '' } },
        payloadError('String is too short (0 chars), minimum 1', 'express_configuration.admin_login_domain', D.admin_login_domain),
      );
      await refuses(
        { express_configuration: { ...EXPRESS, other: 1 } },
        payloadError('Additional properties not allowed: other', 'express_configuration', D.express_configuration),
      );
      await refusesUpdate(
        { express_configuration: { ...EXPRESS, oin_submission_id: chars(201) } },
        payloadError('String is too long (201 chars), maximum 200', 'express_configuration.oin_submission_id', D.oin_submission_id),
      );
      for (const [member, noun] of [['connection_profile_id', 'connection profile'], ['user_attribute_profile_id', 'user attribute profile']]) {
        const message = `Payload validation error: 'The ${noun} ${member}_unknown does not exist' on property express_configuration.${member}.`;
        await refuses({ express_configuration: { ...EXPRESS, [member!]: `${member}_unknown` } }, message);
        await refusesUpdate({ express_configuration: { ...EXPRESS, [member!]: `${member}_unknown` } }, message);
      }
      await accepts({ express_configuration: EXPRESS });
      await acceptsUpdate({ express_configuration: EXPRESS });
      await accepts({ express_configuration: { ...EXPRESS, oin_submission_id: 'a' } });
      await accepts({ express_configuration: { ...EXPRESS, oin_submission_id: chars(200), linked_clients: [{ client_id: 'abc123' }] } });
    }));

    it('signed_request_object: members required (boolean) and credentials (min 0), no others', rule(async () => {
      await refuses(
        { signed_request_object: { other: true } },
        payloadError('Additional properties not allowed: other', 'signed_request_object', D.signed_request_object),
      );
      await refuses(
        { signed_request_object: { required: 'yes' } },
        payloadError('Expected type boolean but found type string', 'signed_request_object.required', D.signed_request_object_required),
      );
      await accepts({ signed_request_object: { required: true, credentials: [] } });
      // Inline credentials of a new client are registered and answered as references.
      const created = (await post({ name: 'x', signed_request_object: { required: false, credentials: [{ credential_type: 'public_key', pem: PEM }] } })).json() as Json;
      const jar = created.signed_request_object as { required: boolean; credentials: { id: string }[] };
      assert.equal(jar.required, false);
      assert.match(jar.credentials[0]!.id, /^cred_/);
      assert.deepEqual(Object.keys(jar.credentials[0]!), ['id']);
    }));

    it('token_vault_privileged_access: credentials required (min 0 items), ip_allowlist', rule(async () => {
      await refuses(
        { token_vault_privileged_access: { ip_allowlist: [] } },
        payloadError('Missing required property: credentials', 'token_vault_privileged_access', D.token_vault_privileged_access),
      );
      await accepts({ token_vault_privileged_access: { credentials: [] } });
      await accepts({ token_vault_privileged_access: { credentials: [], ip_allowlist: [] } });
    }));

    it('token_exchange: member allow_any_profile_of_type (min 0 items of the exchange types), no others', rule(async () => {
      await refuses(
        { token_exchange: { allow_any_profile: [] } },
        payloadError('Additional properties not allowed: allow_any_profile', 'token_exchange', D.token_exchange),
      );
      await refuses(
        { token_exchange: { allow_any_profile_of_type: ['impersonation'] } },
        payloadError('No enum match for: impersonation', 'token_exchange.allow_any_profile_of_type[0]', D.token_exchange_type),
      );
      await accepts({ token_exchange: { allow_any_profile_of_type: [] } });
      await accepts({ token_exchange: { allow_any_profile_of_type: ['on_behalf_of_token_exchange', 'custom_authentication'] } });
    }));

    it('token_quota: client_credentials required', rule(async () => {
      await refuses({ token_quota: {} }, payloadError('Missing required property: client_credentials', 'token_quota'));
      await refuses(
        { token_quota: { client_credentials: {} } },
        payloadError('Too few properties defined (0), minimum 1', 'token_quota.client_credentials', D.token_quota_client_credentials),
      );
      await accepts({ token_quota: { client_credentials: { enforce: true, per_day: 100 } } });
    }));

    it('my_organization_configuration: allowed_strategies and connection_deletion_behavior required', rule(async () => {
      await refuses(
        { my_organization_configuration: { connection_deletion_behavior: 'allow' } },
        payloadError('Missing required property: allowed_strategies', 'my_organization_configuration', D.my_organization_configuration),
      );
      await refuses(
        { my_organization_configuration: { allowed_strategies: ['oidc'] } },
        payloadError('Missing required property: connection_deletion_behavior', 'my_organization_configuration', D.my_organization_configuration),
      );
      await accepts({ my_organization_configuration: { allowed_strategies: ['oidc', 'samlp'], connection_deletion_behavior: 'allow_if_empty' } });
      const named = { allowed_strategies: ['oidc'], connection_deletion_behavior: 'allow', connection_profile_id: EXPRESS.connection_profile_id, user_attribute_profile_id: EXPRESS.user_attribute_profile_id };
      await accepts({ my_organization_configuration: named });
      await refuses(
        { my_organization_configuration: { ...named, connection_profile_id: 'cop_unknown' } },
        "Payload validation error: 'The connection profile cop_unknown does not exist' on property my_organization_configuration.connection_profile_id.",
      );
      await refuses(
        { my_organization_configuration: { ...named, user_attribute_profile_id: 'uap_unknown' } },
        "Payload validation error: 'The user attribute profile uap_unknown does not exist' on property my_organization_configuration.user_attribute_profile_id.",
      );
    }));

    it('oidc_logout.backchannel_logout_urls: one https URL (placeholders allowed) or empty; other members allowed', rule(async () => {
      await refuses(
        { oidc_logout: { backchannel_logout_urls: ['https://a.example.com/logout', 'https://b.example.com/logout'] } },
        payloadError('Array is too long (2), maximum 1', 'oidc_logout.backchannel_logout_urls', D.backchannel_logout_urls),
      );
      await refuses(
        { oidc_logout: { backchannel_logout_urls: ['http://a.example.com/logout'] } },
        payloadError(
          "Object didn't pass validation for format absolute-https-uri-with-placeholders-or-empty: http://a.example.com/logout",
          'oidc_logout.backchannel_logout_urls[0]',
        ),
      );
      await refusesUpdate(
        { oidc_logout: { backchannel_logout_urls: ['https://a.example.com/logout', 'https://b.example.com/logout'] } },
        payloadError('Array is too long (2), maximum 1', 'oidc_logout.backchannel_logout_urls', D.backchannel_logout_urls),
      );
      await accepts({ oidc_logout: { backchannel_logout_urls: ['https://a.example.com/logout'] } });
      await accepts({ oidc_logout: { backchannel_logout_urls: ['https://{organization_name}.example.com/logout'] } });
      await accepts({ oidc_logout: { backchannel_logout_urls: [] } });
      await accepts({ oidc_logout: { backchannel_logout_urls: [''], backchannel_logout_session_metadata: { include: true }, custom: 1 } });
    }));

    it('jwt_configuration: other members allowed; lifetime_in_seconds integer; alg of the listed values', rule(async () => {
      await refuses(
        { jwt_configuration: { lifetime_in_seconds: '60' } },
        payloadError('Expected type integer but found type string', 'jwt_configuration.lifetime_in_seconds', D.jwt_lifetime_in_seconds),
      );
      await refuses({ jwt_configuration: { alg: 'none' } }, payloadError('No enum match for: none', 'jwt_configuration.alg', D.jwt_alg));
      // The members sent go over the defaults (lifetime_in_seconds 36000, secret_encoded true).
      const res = await post({ name: 'jwt', jwt_configuration: { lifetime_in_seconds: 60, alg: 'RS256', custom: true } });
      expectAccepted('POST /clients jwt_configuration', res, 201, {
        jwt_configuration: { lifetime_in_seconds: 60, secret_encoded: true, alg: 'RS256', custom: true },
      });
      expectAccepted('POST /clients jwt_configuration', await post({ name: 'jwt', jwt_configuration: { scopes: {} } }), 201, {
        jwt_configuration: { lifetime_in_seconds: 36000, secret_encoded: true, scopes: {} },
      });
      // An update without secret_encoded (deploy tools strip it) keeps the stored one; one that names it sets it.
      const id = (res.json() as { client_id: string }).client_id;
      const kept = await patch(id, { jwt_configuration: { lifetime_in_seconds: 120 } });
      assert.deepEqual((kept.json() as { jwt_configuration: unknown }).jwt_configuration, { lifetime_in_seconds: 120, secret_encoded: true });
      const set = await patch(id, { jwt_configuration: { lifetime_in_seconds: 120, secret_encoded: false } });
      assert.deepEqual((set.json() as { jwt_configuration: unknown }).jwt_configuration, { lifetime_in_seconds: 120, secret_encoded: false });
    }));

    it('encryption_key and mobile: objects with other members allowed; encryption_key may be null', rule(async () => {
      await accepts({ encryption_key: { pub: 'pub', cert: 'cert', subject: '/CN=tenant.test', extra: 1 } });
      await accepts({ encryption_key: null });
      await accepts({ mobile: { android: { app_package_name: 'com.example.app' }, ios: { team_id: 'TEAM', app_bundle_identifier: 'com.example.app' } } });
    }));

    it('no members beyond the Client table; a body that is not an object', rule(async () => {
      await refuses({ unknown_member: 1 }, payloadError('Additional properties not allowed: unknown_member'));
      await refuses({ client_id: 'chosen', global: true }, payloadError('Additional properties not allowed: client_id,global'));
      await refusesBody([], payloadError('Expected type object but found type array'));
      await refusesUpdate({}, payloadError('Too few properties defined (0), minimum 1'));
      await refusesUpdate({ external_client_id: 'https://cimd.example.com/app.json' }, payloadError('Additional properties not allowed: external_client_id'));
    }));
  });

  describe('create, get, update, rotate-secret, delete', () => {
    it('POST /clients: 201 with the generated credentials and the service\'s defaults', async () => {
      const res = await post({ name: 'Defaults' });
      assert.equal(res.statusCode, 201, res.body);
      const client = res.json() as Json;
      assert.match(client.client_id as string, /^[A-Za-z0-9]{32}$/);
      assert.match(client.client_secret as string, /^[A-Za-z0-9_-]{64}$/);
      const defaults: Json = {
        name: 'Defaults',
        tenant: t.tenant.name,
        description: '',
        global: false,
        is_first_party: true,
        oidc_conformant: false,
        sso: false,
        sso_disabled: false,
        custom_login_page_on: true,
        custom_login_page: '',
        custom_login_page_preview: '',
        form_template: '',
        token_endpoint_auth_method: 'client_secret_post',
        is_token_endpoint_ip_header_trusted: false,
        organization_usage: 'deny',
        organization_require_behavior: 'no_prompt',
        require_pushed_authorization_requests: false,
        require_proof_of_possession: false,
      };
      for (const [key, value] of Object.entries(defaults)) assert.deepEqual(client[key], value, key);
      assert.equal((client.jwt_configuration as Json).lifetime_in_seconds, 36000);
      assert.equal((client.jwt_configuration as Json).secret_encoded, true);
      // As recorded for a body without app_type: a confidential client, with client_credentials.
      assert.deepEqual(client.grant_types, ['authorization_code', 'implicit', 'refresh_token', 'client_credentials']);
      // Two clients never share credentials.
      const other = (await post({ name: 'Defaults' })).json() as Json;
      assert.notEqual(other.client_id, client.client_id);
      assert.notEqual(other.client_secret, client.client_secret);
    });

    it('POST /clients: the token endpoint authentication method follows app_type when left out; what is sent wins', async () => {
      const made = async (body: Json) => {
        const res = await post({ name: 'Typed', ...body });
        assert.equal(res.statusCode, 201, res.body);
        const client = res.json() as Json;
        return [client.token_endpoint_auth_method, client.is_first_party, (client.grant_types as string[]).includes('client_credentials')];
      };
      assert.deepEqual(await made({ app_type: 'regular_web' }), ['client_secret_post', true, true]);
      assert.deepEqual(await made({ app_type: 'non_interactive' }), ['client_secret_post', true, true]);
      assert.deepEqual(await made({ app_type: 'spa' }), ['none', true, false]);
      assert.deepEqual(await made({ app_type: 'native' }), ['none', true, false]);
      assert.deepEqual(await made({ app_type: 'spa', token_endpoint_auth_method: 'client_secret_basic', is_first_party: false }), ['client_secret_basic', false, true]);
      assert.deepEqual(await made({ app_type: 'regular_web', token_endpoint_auth_method: 'none' }), ['none', true, false]);
      // A type name of Object.prototype is no public type (and no valid app_type either).
      const odd = await post({ name: 'Odd', app_type: 'constructor' });
      assert.equal(odd.statusCode, 400, odd.body);
    });

    it('GET /clients/{id}: the client as created; 404 for an unknown id', async () => {
      const created = (await post({ name: 'Get me', app_type: 'spa', callbacks: ['https://app.example.com/callback'] })).json() as Json;
      const res = await t.management('GET', `/api/v2/clients/${created.client_id as string}`, { token });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), created);
      const missing = await t.management('GET', '/api/v2/clients/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { token });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'The client does not exist', errorCode: 'inexistent_client' });
    });

    it('PATCH /clients/{id}: 200, changes only the members sent and keeps the others', async () => {
      const created = (
        await post({
          name: 'Before',
          description: 'kept',
          app_type: 'regular_web',
          callbacks: ['https://app.example.com/callback'],
          client_metadata: { team: 'blue' },
          par_request_expiry: 60,
        })
      ).json() as Json;
      const id = created.client_id as string;
      const res = await patch(id, { name: 'After', allowed_logout_urls: ['https://app.example.com/'] });
      assert.equal(res.statusCode, 200, res.body);
      const updated = res.json() as Json;
      assert.deepEqual(updated, { ...created, name: 'After', allowed_logout_urls: ['https://app.example.com/'] });
      const got = await t.management('GET', `/api/v2/clients/${id}`, { token });
      assert.deepEqual(got.json(), updated);

      const missing = await patch('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { name: 'x' });
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(missing.json(), { statusCode: 404, error: 'Not Found', message: 'The client does not exist', errorCode: 'inexistent_client' });
    });

    it('POST /clients/{id}/rotate-secret: 200 with a new secret; the old one stops working at /oauth/token, the new one works', async () => {
      const audience = 'https://rotate.example.com/';
      const rs = await t.management('POST', '/api/v2/resource-servers', { token, body: { identifier: audience, scopes: [{ value: 'read:x' }] } });
      assert.equal(rs.statusCode, 201, rs.body);
      const created = (
        await post({ name: 'Rotate me', app_type: 'non_interactive', token_endpoint_auth_method: 'client_secret_post', grant_types: ['client_credentials'] })
      ).json() as Json;
      const id = created.client_id as string;
      const grant = await t.management('POST', '/api/v2/client-grants', { token, body: { client_id: id, audience, scope: ['read:x'] } });
      assert.equal(grant.statusCode, 201, grant.body);

      const exchange = (secret: string) =>
        tokenRequest(t.app, { grant_type: 'client_credentials', client_id: id, client_secret: secret, audience });
      const before = await exchange(created.client_secret as string);
      assert.equal(before.statusCode, 200, before.body);

      const rotated = await t.management('POST', `/api/v2/clients/${id}/rotate-secret`, { token });
      assert.equal(rotated.statusCode, 200, rotated.body);
      const client = rotated.json() as Json;
      assert.match(client.client_secret as string, /^[A-Za-z0-9_-]{64}$/);
      assert.notEqual(client.client_secret, created.client_secret);
      assert.deepEqual({ ...client, client_secret: created.client_secret }, created);

      const old = await exchange(created.client_secret as string);
      assert.equal(old.statusCode, 401, old.body);
      const fresh = await exchange(client.client_secret as string);
      assert.equal(fresh.statusCode, 200, fresh.body);
      const got = (await t.management('GET', `/api/v2/clients/${id}`, { token })).json() as Json;
      assert.equal(got.client_secret, client.client_secret);

      const missing = await t.management('POST', '/api/v2/clients/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/rotate-secret', { token });
      assert.equal(missing.statusCode, 404);
      assert.equal((missing.json() as Json).errorCode, 'inexistent_client');
    });

    it('DELETE /clients/{id}: 204, then 404 The client does not exist', async () => {
      const id = ((await post({ name: 'Delete me' })).json() as Json).client_id as string;
      const res = await t.management('DELETE', `/api/v2/clients/${id}`, { token });
      assert.equal(res.statusCode, 204);
      assert.equal(res.body, '');
      const notFound = { statusCode: 404, error: 'Not Found', message: 'The client does not exist', errorCode: 'inexistent_client' };
      const got = await t.management('GET', `/api/v2/clients/${id}`, { token });
      assert.equal(got.statusCode, 404);
      assert.deepEqual(got.json(), notFound);
      const again = await t.management('DELETE', `/api/v2/clients/${id}`, { token });
      assert.equal(again.statusCode, 404);
      assert.deepEqual(again.json(), notFound);
      const row = await t.ctx.database.db.selectFrom('clients').select('client_id').where('client_id', '=', id).executeTakeFirst();
      assert.equal(row, undefined);
    });

    it('the global client "All Applications" exists and cannot be deleted', async () => {
      const list = await t.management('GET', '/api/v2/clients?is_global=true', { token });
      assert.equal(list.statusCode, 200, list.body);
      const globals = list.json() as Json[];
      assert.equal(globals.length, 1);
      const global = globals[0]!;
      assert.equal(global.name, 'All Applications');
      assert.equal(global.global, true);
      const res = await t.management('DELETE', `/api/v2/clients/${global.client_id as string}`, { token });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(res.json(), {
        statusCode: 400,
        error: 'Bad Request',
        message: 'The global client cannot be deleted.',
        errorCode: 'operation_not_supported',
      });
      const still = await t.management('GET', `/api/v2/clients/${global.client_id as string}`, { token });
      assert.equal(still.statusCode, 200);
      assert.equal((still.json() as Json).global, true);
    });

    it('the secret is stored sealed, never in plaintext', async () => {
      const created = (await post({ name: 'Sealed', token_endpoint_auth_method: 'client_secret_post' })).json() as Json;
      const secret = created.client_secret as string;
      const row = await t.ctx.database.db
        .selectFrom('clients')
        .selectAll()
        .where('tenant_id', '=', t.tenant.id)
        .where('client_id', '=', created.client_id as string)
        .executeTakeFirstOrThrow();
      assert.ok(row.client_secret_enc, 'a sealed secret is stored');
      assert.ok(!row.client_secret_enc.includes(secret), 'the sealed column does not contain the secret');
      assert.ok(!row.client_secret_enc.includes(Buffer.from(secret).toString('base64')), 'nor its base64');
      assert.ok(!row.config.includes(secret), 'the configuration JSON does not contain the secret');
      for (const value of Object.values(row)) if (typeof value === 'string') assert.ok(!value.includes(secret));
      // Rotation seals the new secret too.
      const rotated = (await t.management('POST', `/api/v2/clients/${created.client_id as string}/rotate-secret`, { token })).json() as Json;
      const after = await t.ctx.database.db
        .selectFrom('clients')
        .select('client_secret_enc')
        .where('client_id', '=', created.client_id as string)
        .executeTakeFirstOrThrow();
      assert.ok(!after.client_secret_enc!.includes(rotated.client_secret as string));
    });

    it('each write needs its scope', async () => {
      const id = ((await post({ name: 'Scopes' })).json() as Json).client_id as string;
      const readOnly = await t.managementToken('read:clients');
      const cases: [string, string, unknown, string][] = [
        ['POST', '/api/v2/clients', { name: 'x' }, 'create:clients'],
        ['PATCH', `/api/v2/clients/${id}`, { name: 'x' }, 'update:clients, update:client_keys, update:client_credentials, update:client_token_vault_privileged_access'],
        ['DELETE', `/api/v2/clients/${id}`, undefined, 'delete:clients'],
        ['POST', `/api/v2/clients/${id}/rotate-secret`, undefined, 'update:client_keys'],
      ];
      for (const [method, url, body, scopes] of cases) {
        const res = await t.management(method, url, { token: readOnly, ...(body !== undefined && { body }) });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.deepEqual(res.json(), {
          statusCode: 403,
          error: 'Forbidden',
          message: `Insufficient scope, expected any of: ${scopes}`,
          errorCode: 'insufficient_scope',
        });
      }
      const still = await t.management('GET', `/api/v2/clients/${id}`, { token });
      assert.equal((still.json() as Json).name, 'Scopes');
    });
  });
});
