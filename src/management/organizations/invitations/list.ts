import { Type } from '@sinclair/typebox';
import { fieldSelection, FieldsQuery } from '../../fields.js';
import { OffsetQuery } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { InvitationResponse } from './schema.js';
import type { OrganizationInvitationService } from './service.js';

const Query = Type.Object(
  {
    ...OffsetQuery,
    ...FieldsQuery,
    sort: Type.Optional(
      Type.String({
        pattern: '^created_at:(1|-1)$',
        description: 'Field to sort by. Use field:order where order is 1 for ascending and -1 for descending Defaults to created_at:-1.',
      }),
    ),
  },
  { additionalProperties: true },
);

/** GET /api/v2/organizations/{id}/invitations → newest first; `{invitations, start, limit}` with include_totals (no total, as the service). */
export const listOrganizationInvitations: ManagementRouteFactory<OrganizationInvitationService> = (_ctx, invitations) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/invitations',
  config: { scopes: ['read:organization_invitations'] },
  schema: {
    params: OrganizationIdParams,
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(InvitationResponse),
        Type.Object({ invitations: Type.Array(InvitationResponse), start: Type.Number(), limit: Type.Number() }, { additionalProperties: false }),
      ]),
    },
  },
  handler: async (request) => invitations.list(request.tenant, request.params.id, request.query, fieldSelection(request.query)),
});
