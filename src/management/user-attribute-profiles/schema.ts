/**
 * Schemas of user attribute profiles, from the service's OpenAPI document
 * (`CreateUserAttributeProfileRequestContent`,
 * `UpdateUserAttributeProfileRequestContent`, `UserAttributeProfile`,
 * `UserAttributeProfileTemplateItem`,
 * `ListUserAttributeProfilesPaginatedResponseContent`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery } from '../lists.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS, description });

export const STRATEGIES = ['pingfederate', 'ad', 'adfs', 'waad', 'google-apps', 'okta', 'oidc', 'samlp'] as const;
const perStrategy = <T extends Parameters<typeof Type.Optional>[0]>(override: T, description: string) =>
  Type.Object(Object.fromEntries(STRATEGIES.map((s) => [s, Type.Optional(override)])), { additionalProperties: false, description });

const Name = text(128, 'The name of the user attribute profile.');
const SamlMapping = Type.Array(text(128, 'SAML mapping field'), { minItems: 1, description: 'SAML mapping' });
const ScimMapping = text(128, 'SCIM mapping');
const OidcMapping = Type.Object(
  { mapping: text(50, 'OIDC mapping field'), display_name: Type.Optional(text(50, 'Display name for the OIDC mapping')) },
  { additionalProperties: false, description: 'OIDC mapping for this attribute' },
);

export const UserId = Type.Object(
  {
    oidc_mapping: Type.Optional(Type.Literal('sub', { description: 'OIDC mapping for user ID' })),
    saml_mapping: Type.Optional(SamlMapping),
    scim_mapping: Type.Optional(ScimMapping),
    strategy_overrides: Type.Optional(
      perStrategy(
        Type.Object(
          {
            oidc_mapping: Type.Optional(Type.Union([Type.Literal('sub'), Type.Literal('oid'), Type.Literal('email')])),
            saml_mapping: Type.Optional(SamlMapping),
            scim_mapping: Type.Optional(ScimMapping),
          },
          { additionalProperties: false },
        ),
        'Strategy-specific overrides for user ID',
      ),
    ),
  },
  { additionalProperties: false, description: 'User ID mapping configuration' },
);

const UserAttribute = Type.Object(
  {
    description: text(128, 'Description of this attribute'),
    label: text(128, 'Display label for this attribute'),
    profile_required: Type.Boolean({ description: 'Whether this attribute is required in the profile' }),
    auth0_mapping: text(50, 'Auth0 mapping for this attribute'),
    oidc_mapping: Type.Optional(OidcMapping),
    saml_mapping: Type.Optional(SamlMapping),
    scim_mapping: Type.Optional(ScimMapping),
    strategy_overrides: Type.Optional(
      perStrategy(
        Type.Object({ oidc_mapping: Type.Optional(OidcMapping), saml_mapping: Type.Optional(SamlMapping), scim_mapping: Type.Optional(ScimMapping) }, { additionalProperties: false }),
        'Strategy-specific overrides for this attribute',
      ),
    ),
  },
  { additionalProperties: false },
);

/** Attribute name → its mapping; 1 to 64 attributes. Names are 1 to 128 characters without control characters (the document leaves them open). */
export const UserAttributes = Type.Record(Type.String({ pattern: '^[^\\u0000-\\u001F\\u007F]{1,128}$' }), UserAttribute, {
  minProperties: 1,
  maxProperties: 64,
  description: 'User attributes configuration map. Keys are attribute names, values are the mapping configuration for each attribute.',
});

export const CreateProfileBody = Type.Object({ name: Name, user_id: Type.Optional(UserId), user_attributes: UserAttributes }, { additionalProperties: false });
export type CreateProfileBody = Static<typeof CreateProfileBody>;

/** `user_id: null` removes the user id mapping. */
export const UpdateProfileBody = Type.Object(
  { name: Type.Optional(Name), user_id: Type.Optional(Type.Union([UserId, Type.Null()])), user_attributes: Type.Optional(UserAttributes) },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ProfileResponse = Type.Object(
  { id: Type.String(), name: Type.String(), user_id: Type.Optional(UserId), user_attributes: UserAttributes },
  { additionalProperties: false },
);
export type ProfileResponse = Static<typeof ProfileResponse>;

export const ProfileListResponse = Type.Object(
  { user_attribute_profiles: Type.Array(ProfileResponse), next: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

/** The document: `take` at least 1 (no maximum: Gatehouse's 100 for checkpoint lists), 5 by default. */
export const ProfileListQuery = Type.Object(CheckpointQuery, { additionalProperties: false });
export type ProfileListQuery = Static<typeof ProfileListQuery>;

export const ProfileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS }) });

export const TemplateResponse = Type.Object(
  {
    id: Type.String(),
    display_name: Type.String(),
    template: Type.Object({ name: Type.Optional(Name), user_id: Type.Optional(UserId), user_attributes: Type.Optional(UserAttributes) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type TemplateResponse = Static<typeof TemplateResponse>;
export const TemplateListResponse = Type.Object({ user_attribute_profile_templates: Type.Array(TemplateResponse) }, { additionalProperties: false });
