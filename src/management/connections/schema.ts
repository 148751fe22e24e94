/**
 * Connection schemas, from the service's OpenAPI document
 * (`CreateConnectionRequestContent`, `UpdateConnectionRequestContent`,
 * `ConnectionPropertiesOptions` / `ConnectionOptionsAuth0`,
 * `GetConnectionResponseContent`, `ConnectionForList`,
 * `UpdateEnabledClientConnectionsRequestContent`). Descriptions appear in
 * validation messages.
 *
 * Not modelled yet, hence refused as additional properties rather than dropped:
 * `authentication`, `connected_accounts`,
 * `cross_app_access_requesting_app` (no storage for them).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { FreeObject, maxJsonBytes, NullableStringEnum, StringEnum } from '../../platform/http/schema-types.js';

/** The document's `ConnectionIdentityProviderEnum`; those Gatehouse implements are the registry's (src/domain/connections/strategies/). */
export const STRATEGIES = [
  'ad', 'adfs', 'amazon', 'apple', 'dropbox', 'bitbucket', 'auth0-oidc', 'auth0', 'baidu', 'bitly', 'box', 'custom', 'daccount',
  'dwolla', 'email', 'evernote-sandbox', 'evernote', 'exact', 'facebook', 'fitbit', 'github', 'google-apps', 'google-oauth2',
  'instagram', 'ip', 'line', 'linkedin', 'oauth1', 'oauth2', 'office365', 'oidc', 'okta', 'paypal', 'paypal-sandbox',
  'pingfederate', 'planningcenter', 'salesforce-community', 'salesforce-sandbox', 'salesforce', 'samlp', 'sharepoint', 'shopify',
  'shop', 'sms', 'soundcloud', 'thirtysevensignals', 'twitter', 'untappd', 'vkontakte', 'waad', 'weibo', 'windowslive',
  'wordpress', 'yahoo', 'yandex',
] as const;

/** `type: [object, null]` with declared members and no others, as the document's option sub-objects are. */
function NullableObject(properties: Record<string, TSchema>, required: string[], description?: string) {
  return Type.Unsafe<Record<string, unknown> | null>({
    type: ['object', 'null'],
    ...(description !== undefined && { description }),
    additionalProperties: false,
    ...(required.length > 0 && { required }),
    properties,
  });
}

/**
 * The options of a database connection: the members of `ConnectionOptionsAuth0` that
 * Gatehouse's login and sign-up honour, typed as the document types them. The document
 * lets options carry other members (`additionalProperties: true`); they are kept as given,
 * up to CONNECTION_OPTIONS_MAX_BYTES serialised (the document states no limit).
 */
const optionProperties = {
  validation: NullableObject(
    {
      username: NullableObject(
        { min: Type.Integer({ minimum: 1 }), max: Type.Integer({ maximum: 128 }) },
        ['max', 'min'],
      ),
    },
    [],
    'Options for validation',
  ),
  passwordPolicy: NullableStringEnum(['none', 'low', 'fair', 'good', 'excellent'], { description: 'Password strength level' }),
  password_complexity_options: NullableObject(
    { min_length: Type.Integer({ minimum: 1, maximum: 128, description: 'Minimum password length' }) },
    [],
    'Password complexity options',
  ),
  password_history: NullableObject(
    { enable: Type.Boolean(), size: Type.Integer({ minimum: 0, maximum: 24 }) },
    ['enable'],
    'Options for password history policy',
  ),
  password_no_personal_info: NullableObject({ enable: Type.Boolean() }, ['enable'], 'Options for personal info in passwords policy'),
  password_dictionary: NullableObject(
    {
      enable: Type.Boolean(),
      dictionary: Type.Array(Type.String({ maxLength: 50, description: 'Custom Password Dictionary entry. 50 characters max.' }), {
        description: 'Custom Password Dictionary. An array of up to 200 entries.',
      }),
    },
    ['enable'],
    'Options for password dictionary policy',
  ),
  requires_username: Type.Boolean({
    description: 'Indicates whether the user is required to provide a username in addition to an email address.',
  }),
  brute_force_protection: Type.Boolean({ description: "Enables Auth0's brute force protection to prevent credential stuffing attacks." }),
  disable_signup: Type.Boolean({ description: 'When true, prevents new user registration through this connection.' }),
  import_mode: Type.Boolean({
    description: 'Enable this if you have a legacy user store and you want to gradually migrate those users to the Auth0 user store',
  }),
  enabledDatabaseCustomization: Type.Boolean({ description: 'Set to true to use a legacy user store' }),
  authentication_methods: NullableObject(
    {
      password: NullableObject(
        {
          enabled: Type.Boolean({ description: 'Determines whether passwords are enabled' }),
          api_behavior: Type.String({ enum: ['required', 'optional'] }),
          signup_behavior: Type.String({ enum: ['allow', 'block'] }),
        },
        [],
        'Password authentication enablement',
      ),
      passkey: NullableObject({ enabled: Type.Boolean({ description: 'Determines whether passkeys are enabled' }) }, [], 'Passkey authentication enablement'),
      email_otp: Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'] }),
      phone_otp: Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'] }),
    },
    [],
    'Options for enabling authentication methods.',
  ),
  passkey_options: NullableObject(
    {
      challenge_ui: Type.String({ enum: ['both', 'autofill', 'button'], description: 'Controls the UI used to challenge the user for their passkey.' }),
      progressive_enrollment_enabled: Type.Boolean({ description: 'Enables or disables progressive enrollment of passkeys for the connection.' }),
      local_enrollment_enabled: Type.Boolean({
        description: 'Enables or disables enrollment prompt for local passkey when user authenticates using a cross-device passkey for the connection.',
      }),
    },
    [],
    'Options for the passkey authentication method',
  ),
  non_persistent_attrs: Type.Unsafe<string[] | null>({
    type: ['array', 'null'],
    items: { type: 'string' },
    description: 'An array of user fields that should not be stored in the Auth0 database',
  }),
};

/**
 * Larger than other free-form objects: options are where strategies keep
 * certificates, custom database scripts and password dictionaries.
 */
const CONNECTION_OPTIONS_MAX_BYTES = 262_144;

const options = Type.Object(
  Object.fromEntries(Object.entries(optionProperties).map(([k, v]) => [k, Type.Optional(v)])),
  {
    additionalProperties: true,
    description: "The connection's options (depend on the connection strategy)",
    ...maxJsonBytes(CONNECTION_OPTIONS_MAX_BYTES),
  },
);

const metadata = Type.Unsafe<Record<string, string | null>>({
  type: 'object',
  description: 'Metadata associated with the connection in the form of an object with string values (max 255 chars).  Maximum of 10 metadata properties allowed.',
  additionalProperties: { type: ['string', 'null'], maxLength: 255 },
  maxProperties: 10,
});

const realms = Type.Array(Type.String({ description: 'The realm where this connection belongs' }), {
  description:
    'Defines the realms for which the connection will be used (ie: email domains). If the array is empty or the property is not specified, the connection name will be added as realm.',
});

const isDomainConnection = Type.Boolean({
  description: '<code>true</code> promotes to a domain-level connection so that third-party applications can use it. <code>false</code> does not promote the connection, so only first-party applications with the connection enabled can use it. (Defaults to <code>false</code>.)',
});

const clientId = (description: string) => Type.String({ format: 'client-id', description });

/** The document's `ConnectionShowAsButton` (enterprise strategies only). */
const showAsButton = Type.Boolean({
  description: 'Enables showing a button for the connection in the login page (new experience only). If false, it will be usable only by HRD. (Defaults to false.)',
});

export const CreateConnectionBody = Type.Object(
  {
    name: Type.String({
      maxLength: 128,
      pattern: '^[a-zA-Z0-9](-[a-zA-Z0-9]|[a-zA-Z0-9])*$',
      description:
        "The name of the connection. Must start and end with an alphanumeric character and can only contain alphanumeric characters and '-'. Max length 128",
    }),
    display_name: Type.Optional(Type.String({ maxLength: 128, description: 'Connection name used in the new universal login experience' })),
    strategy: StringEnum(STRATEGIES, { description: 'The identity provider identifier for the connection' }),
    options: Type.Optional(options),
    enabled_clients: Type.Optional(
      Type.Array(clientId('The id of the client for which the connection is to be enabled.'), {
        description:
          'Use of this property is NOT RECOMMENDED. Use the PATCH /v2/connections/{id}/clients endpoint to enable the connection for a set of clients.',
      }),
    ),
    is_domain_connection: Type.Optional(isDomainConnection),
    show_as_button: Type.Optional(showAsButton),
    realms: Type.Optional(realms),
    metadata: Type.Optional(metadata),
  },
  { additionalProperties: false },
);
export type CreateConnectionBody = Static<typeof CreateConnectionBody>;

export const UpdateConnectionBody = Type.Object(
  {
    display_name: Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          'The connection name used in the new universal login experience. If display_name is not included in the request, the field will be overwritten with the name value.',
      }),
    ),
    options: Type.Optional(
      Type.Unsafe<Record<string, unknown> | null>({
        ...options,
        type: ['object', 'null'],
        description: "The connection's options (depend on the connection strategy)",
      }),
    ),
    enabled_clients: Type.Optional(
      Type.Unsafe<string[] | null>({
        type: ['array', 'null'],
        items: clientId('The client_id of the client to for which the connection is to be enabled'),
        description: 'DEPRECATED property. Use the PATCH /v2/connections/{id}/clients endpoint to enable or disable the connection for any clients.',
      }),
    ),
    is_domain_connection: Type.Optional(isDomainConnection),
    show_as_button: Type.Optional(showAsButton),
    realms: Type.Optional(realms),
    metadata: Type.Optional(metadata),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateConnectionBody = Static<typeof UpdateConnectionBody>;

const responseProperties = {
  name: Type.String({ description: 'The name of the connection' }),
  display_name: Type.String({ description: 'Connection name used in login screen' }),
  options: FreeObject({ description: 'The connection options' }, null),
  id: Type.String({ description: "The connection's identifier" }),
  strategy: Type.String({ description: 'The type of the connection, related to the identity provider' }),
  realms: Type.Array(Type.String()),
  is_domain_connection: Type.Boolean({ description: 'True if the connection is domain level' }),
  show_as_button: Type.Boolean({ description: 'Enables showing a button for the connection in the login page (enterprise connections)' }),
  metadata: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
};

/** GetConnectionResponseContent (and the create/update ones, which are the same). */
export const ConnectionResponse = Type.Partial(
  Type.Object({ ...responseProperties, enabled_clients: Type.Array(Type.String()) }, { additionalProperties: false }),
);

/** ConnectionForList: no `enabled_clients`. `fields` / `include_fields` may trim any member. */
export const ConnectionForList = Type.Partial(Type.Object(responseProperties, { additionalProperties: false }));

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'The id of the connection' }) });

export const FieldsQuery = {
  fields: Type.String({
    description:
      'A comma separated list of fields to include or exclude (depending on include_fields) from the result, empty to retrieve all fields',
  }),
  include_fields: Type.Boolean({
    description: '<code>true</code> if the fields specified are to be included in the result, <code>false</code> otherwise (defaults to <code>true</code>)',
  }),
};

export const UpdateEnabledClientsBody = Type.Array(
  Type.Object(
    {
      client_id: clientId('The client_id of the client whose status will be changed. Note that the limit per PATCH request is 50 clients.'),
      status: Type.Boolean({ description: 'Whether the connection is enabled or not for this client_id' }),
    },
    { additionalProperties: false },
  ),
  // The document states the limit of 50 clients per request in the description of client_id.
  { minItems: 1, maxItems: 50 },
);
export type UpdateEnabledClientsBody = Static<typeof UpdateEnabledClientsBody>;

export const EnabledClientsResponse = Type.Object(
  {
    clients: Type.Array(Type.Object({ client_id: Type.String({ description: 'The client id' }) }), {
      description: 'Clients for which the connection is enabled',
    }),
    next: Type.Optional(Type.String({ description: 'Encoded next token' })),
  },
);
