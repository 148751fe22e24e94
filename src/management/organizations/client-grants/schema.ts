/**
 * Schemas of an organization's client grants, from the service's OpenAPI
 * document (`AssociateOrganizationClientGrantRequestContent`,
 * `OrganizationClientGrant`, `AssociateOrganizationClientGrantResponseContent`).
 */
import { Type, type Static } from '@sinclair/typebox';

export const AssociateClientGrantBody = Type.Object(
  { grant_id: Type.String({ description: 'A Client Grant ID to add to the organization' }) },
  { additionalProperties: false },
);
export type AssociateClientGrantBody = Static<typeof AssociateClientGrantBody>;

/** A client grant as seen from an organization: the grant's members that concern organizations. */
export const OrganizationClientGrantResponse = Type.Object(
  {
    id: Type.String({ description: 'ID of the client grant' }),
    client_id: Type.Optional(Type.String()),
    audience: Type.String(),
    scope: Type.Array(Type.String()),
    organization_usage: Type.Optional(Type.String()),
    allow_any_organization: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const organizationId = Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' });

export const OrganizationIdParams = Type.Object({ id: organizationId });

export const GrantParams = Type.Object({
  id: organizationId,
  grant_id: Type.String({ minLength: 1, description: 'The Client Grant ID to remove from the organization' }),
});
