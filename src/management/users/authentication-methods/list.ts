import { Type } from '@sinclair/typebox';
import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { UserAuthenticationMethod } from '../../guardian/mfa-schema.js';
import { OffsetQuery, offsetListResponse } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/** GET /api/v2/users/{id}/authentication-methods → an array, or `{authenticators, start, limit, total}` with include_totals. */
export const listAuthenticationMethods: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: '/users/:id/authentication-methods',
  config: { scopes: ['read:authentication_methods'] },
  schema: { params: userIdParams('The ID of the user in question'), querystring: Query, response: { 200: offsetListResponse('authenticators', UserAuthenticationMethod) } },
  handler: async (request) => mfa.authenticationMethods(request.tenant, request.params.id, request.query),
});
