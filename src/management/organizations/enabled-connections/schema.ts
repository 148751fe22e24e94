/**
 * Schemas of the connections enabled for an organization, from the service's
 * OpenAPI document (`AddOrganizationConnectionRequestContent`,
 * `UpdateOrganizationConnectionRequestContent`, `OrganizationConnection`).
 */
import { Type, type Static } from '@sinclair/typebox';

const DESCRIPTIONS = {
  assign_membership_on_login:
    'When true, all users that log in with this connection will be automatically granted membership in the organization. When false, users must be granted membership in the organization before logging in with this connection.',
  is_signup_enabled:
    'Determines whether organization signup should be enabled for this organization connection. Only applicable for database connections. Default: false.',
  show_as_button: 'Determines whether a connection should be displayed on this organization’s login prompt. Only applicable for enterprise connections. Default: true.',
} as const;

const settings = {
  assign_membership_on_login: Type.Optional(Type.Boolean({ description: DESCRIPTIONS.assign_membership_on_login })),
  is_signup_enabled: Type.Optional(Type.Boolean({ description: DESCRIPTIONS.is_signup_enabled })),
  show_as_button: Type.Optional(Type.Boolean({ description: DESCRIPTIONS.show_as_button })),
};

export const AddConnectionBody = Type.Object(
  { connection_id: Type.String({ minLength: 1, maxLength: 50, description: 'Single connection ID to add to the organization.' }), ...settings },
  { additionalProperties: false },
);
export type AddConnectionBody = Static<typeof AddConnectionBody>;

export const UpdateConnectionBody = Type.Object(settings, { additionalProperties: false });
export type UpdateConnectionBody = Static<typeof UpdateConnectionBody>;

/** Members in the order the document lists them. */
export const OrganizationConnectionResponse = Type.Object(
  {
    connection_id: Type.String(),
    assign_membership_on_login: Type.Boolean(),
    show_as_button: Type.Boolean(),
    is_signup_enabled: Type.Boolean(),
    connection: Type.Object({ name: Type.String(), strategy: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const ConnectionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' }),
  connectionId: Type.String({ minLength: 1, maxLength: 50, description: 'Connection identifier' }),
});
