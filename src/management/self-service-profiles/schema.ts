/**
 * /self-service-profiles, from the service's document (`SelfServiceProfile`,
 * `CreateSelfServiceProfileRequestContent`, `CreateSelfServiceProfileSsoTicketRequestContent` …).
 */
import { Type, type Static } from '@sinclair/typebox';
import { OffsetQuery } from '../lists.js';

export const STRATEGIES = ['oidc', 'samlp', 'waad', 'google-apps', 'adfs', 'okta', 'auth0-samlp', 'okta-samlp', 'keycloak-samlp', 'pingfederate'] as const;

export const ProfileIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the self-service profile' }) });
export const TicketParams = Type.Object({
  profileId: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the self-service profile' }),
  id: Type.String({ minLength: 1, maxLength: 128, description: 'The id of the ticket to revoke' }),
});
export const CustomTextParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the self-service profile' }),
  language: Type.Literal('en', { description: 'The language of the custom text' }),
  page: Type.Literal('get-started', { description: 'The page where the custom text is shown' }),
});

const UserAttribute = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 250, description: 'Identifier of this attribute' }),
    description: Type.String({ maxLength: 1000, description: 'Description of this attribute' }),
    is_optional: Type.Boolean({ description: 'Determines if this attribute is required' }),
  },
  { additionalProperties: false },
);
const Branding = Type.Object(
  {
    logo_url: Type.Optional(Type.String({ maxLength: 1024, pattern: '^https://', description: 'The logo URL' })),
    colors: Type.Optional(Type.Object({ primary: Type.String({ pattern: '^#([\\dA-Fa-f]{6}|[\\dA-Fa-f]{3})$' }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
const name = Type.String({ minLength: 1, maxLength: 100, description: 'The name of the self-service Profile' });
const description = Type.String({ minLength: 1, maxLength: 140, description: 'The description of the self-service Profile' });
const AllowedStrategies = Type.Array(Type.Union(STRATEGIES.map((s) => Type.Literal(s))), { minItems: 1, maxItems: STRATEGIES.length, description: 'List of IdP strategies' });
const UserAttributes = Type.Array(UserAttribute, { maxItems: 50 });
const UserAttributeProfileId = Type.String({ minLength: 1, maxLength: 64, description: 'ID of the user-attribute-profile to associate with this self-service profile.' });

export const CreateProfileBody = Type.Object(
  { name, description: Type.Optional(description), branding: Type.Optional(Branding), allowed_strategies: Type.Optional(AllowedStrategies), user_attributes: Type.Optional(UserAttributes), user_attribute_profile_id: Type.Optional(UserAttributeProfileId) },
  { additionalProperties: false },
);
export type CreateProfileBody = Static<typeof CreateProfileBody>;

export const UpdateProfileBody = Type.Object(
  {
    name: Type.Optional(name),
    description: Type.Optional(Type.Union([description, Type.Null()])),
    branding: Type.Optional(Type.Union([Branding, Type.Null()])),
    allowed_strategies: Type.Optional(AllowedStrategies),
    user_attributes: Type.Optional(Type.Union([UserAttributes, Type.Null()])),
    /** null: the profile names none. */
    user_attribute_profile_id: Type.Optional(Type.Union([UserAttributeProfileId, Type.Null()])),
  },
  { additionalProperties: false },
);
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const ProfileResponse = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    user_attributes: Type.Array(UserAttribute),
    user_attribute_profile_id: Type.Optional(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
    branding: Type.Optional(Branding),
    allowed_strategies: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type Profile = Static<typeof ProfileResponse>;

export const ProfileListQuery = Type.Object(OffsetQuery, { additionalProperties: true });

export const CustomTextBody = Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), { maxProperties: 50 });
export const CustomTextResponse = Type.Record(Type.String(), Type.String());

const connectionName = Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9](-[a-zA-Z0-9]|[a-zA-Z0-9])*$', description: 'The name of the connection that will be created' });

export const SsoTicketBody = Type.Object(
  {
    connection_id: Type.Optional(Type.String({ maxLength: 64 })),
    connection_config: Type.Optional(
      Type.Object(
        {
          name: connectionName,
          display_name: Type.Optional(Type.String({ maxLength: 128 })),
          is_domain_connection: Type.Optional(Type.Boolean()),
          show_as_button: Type.Optional(Type.Boolean()),
          metadata: Type.Optional(Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 255 }), { maxProperties: 10 })),
          options: Type.Optional(Type.Union([Type.Object({ icon_url: Type.Optional(Type.Union([Type.String({ maxLength: 1024, pattern: '^https://' }), Type.Null()])) }, { additionalProperties: false }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
    ),
    enabled_clients: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, description: 'List of client_ids that the connection will be enabled for' })),
    enabled_organizations: Type.Optional(
      Type.Array(
        Type.Object(
          { organization_id: Type.String({ minLength: 1, maxLength: 50 }), assign_membership_on_login: Type.Optional(Type.Boolean()), show_as_button: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    ttl_sec: Type.Optional(Type.Integer({ minimum: 0, maximum: 432000, description: 'Number of seconds for which the ticket is valid before expiration' })),
    domain_aliases_config: Type.Optional(Type.Object({ domain_verification: Type.Union([Type.Literal('none'), Type.Literal('optional'), Type.Literal('required')]), pending_domains: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 10 })) }, { additionalProperties: false })),
    provisioning_config: Type.Optional(Type.Object({}, { additionalProperties: true })),
    use_for_organization_discovery: Type.Optional(Type.Boolean()),
    enabled_features: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);
export type SsoTicketBody = Static<typeof SsoTicketBody>;
export const SsoTicketResponse = Type.Object({ ticket: Type.String({ description: 'The URL for the created ticket' }) }, { additionalProperties: false });
