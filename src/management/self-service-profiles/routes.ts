/**
 * /api/v2/self-service-profiles: the profiles (list, create, get, update,
 * delete), their custom text, and their SSO tickets (create, revoke). One
 * route per operation, each beside its schema and scope.
 */
import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRoute } from '../route.js';
import { offsetListResponse } from '../lists.js';
import {
  CreateProfileBody,
  CustomTextBody,
  CustomTextParams,
  CustomTextResponse,
  ProfileIdParams,
  ProfileListQuery,
  ProfileResponse,
  SsoTicketBody,
  SsoTicketResponse,
  TicketParams,
  UpdateProfileBody,
} from './schema.js';
import { SelfServiceProfileService, type SelfServiceProfileContext } from './service.js';

export function selfServiceProfileRoutes(ctx: SelfServiceProfileContext): ManagementRoute[] {
  const profiles = new SelfServiceProfileService(ctx);
  return [
    managementRoute({
      method: 'GET',
      url: '/self-service-profiles',
      config: { scopes: ['read:self_service_profiles'] },
      schema: { querystring: ProfileListQuery, response: { 200: offsetListResponse('self_service_profiles', ProfileResponse) } },
      handler: async (request) => profiles.list(request.tenant, request.query),
    }),
    managementRoute({
      method: 'POST',
      url: '/self-service-profiles',
      config: { scopes: ['create:self_service_profiles'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateProfileBody, response: { 201: ProfileResponse } },
      handler: async (request, reply) => reply.code(201).send(await profiles.create(request.tenant, request.body)),
    }),
    managementRoute({
      method: 'GET',
      url: '/self-service-profiles/:id',
      config: { scopes: ['read:self_service_profiles'] },
      schema: { params: ProfileIdParams, response: { 200: ProfileResponse } },
      handler: async (request) => profiles.get(request.tenant, request.params.id),
    }),
    managementRoute({
      method: 'PATCH',
      url: '/self-service-profiles/:id',
      config: { scopes: ['update:self_service_profiles'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileIdParams, body: UpdateProfileBody, response: { 200: ProfileResponse } },
      handler: async (request) => profiles.update(request.tenant, request.params.id, request.body),
    }),
    managementRoute({
      method: 'DELETE',
      url: '/self-service-profiles/:id',
      config: { scopes: ['delete:self_service_profiles'] },
      schema: { params: ProfileIdParams, response: { 204: NoContent } },
      handler: async (request, reply) => {
        await profiles.delete(request.tenant, request.params.id);
        return reply.code(204).send();
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/self-service-profiles/:id/custom-text/:language/:page',
      config: { scopes: ['read:self_service_profile_custom_texts'] },
      schema: { params: CustomTextParams, response: { 200: CustomTextResponse } },
      handler: async (request) => profiles.customText(request.tenant, request.params.id, request.params.language, request.params.page),
    }),
    managementRoute({
      method: 'PUT',
      url: '/self-service-profiles/:id/custom-text/:language/:page',
      config: { scopes: ['update:self_service_profile_custom_texts'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], params: CustomTextParams, body: CustomTextBody, response: { 200: CustomTextResponse } },
      handler: async (request) => profiles.setCustomText(request.tenant, request.params.id, request.params.language, request.params.page, request.body),
    }),
    managementRoute({
      method: 'POST',
      url: '/self-service-profiles/:id/sso-ticket',
      config: { scopes: ['create:sso_access_tickets'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileIdParams, body: SsoTicketBody, response: { 201: SsoTicketResponse } },
      handler: async (request, reply) => reply.code(201).send(await profiles.createTicket(request.tenant, request.params.id, request.body)),
    }),
    managementRoute({
      method: 'POST',
      url: '/self-service-profiles/:profileId/sso-ticket/:id/revoke',
      config: { scopes: ['delete:sso_access_tickets'] },
      schema: { params: TicketParams, response: { 202: Type.Object({}, { additionalProperties: false }) } },
      handler: async (request, reply) => {
        await profiles.revokeTicket(request.tenant, request.params.profileId, request.params.id);
        return reply.code(202).send({});
      },
    }),
  ];
}
