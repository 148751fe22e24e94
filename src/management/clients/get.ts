import { Type } from '@sinclair/typebox';
import { fieldAccess } from '../../domain/clients/model.js';
import { managementRoute, sendSerialized, type ManagementRouteFactory } from '../route.js';
import { clientSchemas } from './fields.js';
import { ListClientsQuery } from './list.js';
import { ClientIdParams, ClientResponse } from './schema.js';
import { unreadableFields, type ClientService, type FieldSelection } from './service.js';

const Query = Type.Object(
  { fields: Type.Optional(ListClientsQuery.properties.fields), include_fields: Type.Optional(ListClientsQuery.properties.include_fields) },
  { additionalProperties: true },
);

/** GET /api/v2/clients/{id}: the client, serialised with the fields the token may read. */
export const getClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => managementRoute({
  method: 'GET',
  url: '/clients/:id',
  config: { scopes: ['read:clients', 'read:client_keys', 'read:client_credentials', 'read:client_summary'] },
  schema: { params: ClientIdParams, querystring: Query, response: { 200: ClientResponse } },
  handler: async (request, reply) => {
    const { id } = request.params;
    const query = request.query;
    const access = fieldAccess(request.principal!.scopes);
    const fields = query.fields?.split(',').map((f) => f.trim()).filter(Boolean) ?? [];
    const selection: FieldSelection = fields.length
      ? { mode: query.include_fields === false ? 'exclude' : 'include', fields: new Set(fields) }
      : { mode: 'all' };
    if (selection.mode === 'include') {
      const denied = unreadableFields(fields, access);
      if (denied) throw denied;
    }
    const client = await clients.present(request.tenant, await clients.find(request.tenant, id), access, selection);
    return sendSerialized(reply, clientSchemas(access).client, client);
  },
});
