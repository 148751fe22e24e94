/**
 * GET /api/v2/client-grants/{id}/organizations (read:organization_client_grants):
 * the organizations a client grant is linked to (POST
 * /organizations/{id}/client-grants links them), with both paging styles
 * the document offers: offset (`page`, `per_page`, `include_totals`) or
 * checkpoint (`from`, `take`; `next` sealed, absent on the last page).
 * An unknown grant is 404 "The grant does not exist.".
 */
import { Type } from '@sinclair/typebox';
import { organizationFromRow } from '../../domain/organizations/model.js';
import type { ClientGrantStore } from '../../domain/client-grants/store.js';
import type { OrganizationStore } from '../../domain/organizations/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';
import { CheckpointQuery, OffsetQuery, pagedList, pagedListResponse, type CheckpointSealing } from '../lists.js';
import { parsePaging } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { OrganizationResponse } from '../organizations/schema.js';

/** What the operation touches: the grant (to tell an unknown one) and the organizations linked to it. */
export interface ClientGrantOrganizationsContext extends CheckpointSealing {
  readonly stores: {
    readonly clientGrants: Pick<ClientGrantStore, 'get'>;
    readonly organizations: Pick<OrganizationStore, 'listByClientGrant'>;
  };
}

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255, description: 'ID of the client grant' }) });
const Query = Type.Object({ ...OffsetQuery, ...CheckpointQuery }, { additionalProperties: true });

const scope = (tenant: Tenant, grantId: string) => `${tenant.id}:client_grant_organizations:${grantId}`;

export const listClientGrantOrganizations: ManagementRouteFactory<unknown, ClientGrantOrganizationsContext> = (ctx) => managementRoute({
  method: 'GET',
  url: '/client-grants/:id/organizations',
  config: { scopes: ['read:organization_client_grants'] },
  schema: { params: Params, querystring: Query, response: { 200: pagedListResponse('organizations', OrganizationResponse) } },
  handler: async (request) => {
    const { tenant } = request;
    const grantId = request.params.id;
    if (!(await ctx.stores.clientGrants.get(tenant.id, grantId))) throw managementErrors.notFound('The grant does not exist.', 'inexistent_client_grant');
    const paging = parsePaging(request.query, ctx.box, scope(tenant, grantId), ctx.now());
    return pagedList(ctx, scope(tenant, grantId), 'organizations', paging, (page) => ctx.stores.organizations.listByClientGrant(tenant.id, grantId, page), (row) => row.id, organizationFromRow);
  },
});
