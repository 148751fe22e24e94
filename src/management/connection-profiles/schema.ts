/**
 * Schemas of connection profiles, from the service's OpenAPI document
 * (`CreateConnectionProfileRequestContent`, `UpdateConnectionProfileRequestContent`,
 * `ConnectionProfile`, `ConnectionProfileTemplateItem`,
 * `ListConnectionProfilesPaginatedResponseContent`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery } from '../lists.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const Name = Type.String({ minLength: 1, maxLength: 50, pattern: NO_CONTROL_CHARACTERS, description: 'The name of the connection profile.' });
const Membership = Type.Union([Type.Literal('none'), Type.Literal('optional'), Type.Literal('required')]);
const Organization = Type.Object(
  { show_as_button: Type.Optional(Membership), assign_membership_on_login: Type.Optional(Membership) },
  { additionalProperties: false, description: 'The organization of the connection profile.' },
);
/**
 * The document's pattern, with the placeholders' braces escaped: Ajv compiles
 * patterns with the `u` flag, where a bare `{` is a syntax error.
 */
const ConnectionNamePrefixTemplate = Type.String({
  minLength: 0,
  maxLength: 15,
  pattern: '^(?!-)(?!.*--)(?:[a-zA-Z0-9-]|\\{org_id\\}|\\{org_name\\})*$',
  description: 'Connection name prefix template.',
});
const EnabledFeatures = Type.Array(Type.Union([Type.Literal('scim'), Type.Literal('universal_logout')]), { description: 'Enabled features for the connection profile.' });
/** The document declares no members: only `{}`. */
const ConnectionConfig = Type.Object({}, { additionalProperties: false, description: 'Connection profile configuration.' });
const StrategyOverride = Type.Object(
  { enabled_features: Type.Optional(EnabledFeatures), connection_config: Type.Optional(ConnectionConfig) },
  { additionalProperties: false },
);
export const STRATEGIES = ['pingfederate', 'ad', 'adfs', 'waad', 'google-apps', 'okta', 'oidc', 'samlp'] as const;
const StrategyOverrides = Type.Object(Object.fromEntries(STRATEGIES.map((s) => [s, Type.Optional(StrategyOverride)])), {
  additionalProperties: false,
  description: 'Strategy-specific overrides.',
});

const members = {
  organization: Type.Optional(Organization),
  connection_name_prefix_template: Type.Optional(ConnectionNamePrefixTemplate),
  enabled_features: Type.Optional(EnabledFeatures),
  connection_config: Type.Optional(ConnectionConfig),
  strategy_overrides: Type.Optional(StrategyOverrides),
};

export const CreateProfileBody = Type.Object({ name: Name, ...members }, { additionalProperties: false });
export type CreateProfileBody = Static<typeof CreateProfileBody>;

export const UpdateProfileBody = Type.Object({ name: Type.Optional(Name), ...members }, { additionalProperties: false });
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ProfileResponse = Type.Object({ id: Type.String(), name: Type.String(), ...members }, { additionalProperties: false });
export type ProfileResponse = Static<typeof ProfileResponse>;

export const ProfileListResponse = Type.Object(
  { connection_profiles: Type.Array(ProfileResponse), next: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/**
 * The document: `take` 1 to 10, 5 by default. The `auth0` SDK sends
 * `take=50` unless told otherwise, so a larger `take` (up to the 100 of every
 * checkpoint list) gives pages of 10 rather than a 400 (service.ts).
 */
export const ProfileListQuery = Type.Object(CheckpointQuery, { additionalProperties: false });
export type ProfileListQuery = Static<typeof ProfileListQuery>;

export const ProfileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS }) });

export const TemplateTemplate = Type.Object({ name: Type.Optional(Name), ...members }, { additionalProperties: false });
export const TemplateResponse = Type.Object(
  { id: Type.String(), display_name: Type.String(), template: TemplateTemplate },
  { additionalProperties: false },
);
export type TemplateResponse = Static<typeof TemplateResponse>;
export const TemplateListResponse = Type.Object({ connection_profile_templates: Type.Array(TemplateResponse) }, { additionalProperties: false });
