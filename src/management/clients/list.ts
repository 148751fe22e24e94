/**
 * GET /api/v2/clients, per the specification's operation 1: filters, field
 * selection, offset or checkpoint paging, the two `q` queries, and field
 * visibility by the token's scopes.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CheckpointSealing } from '../lists.js';
import type { FastifyRequest } from 'fastify';
import { ManagementError } from '../../platform/http/errors.js';
import { fieldAccess } from '../../domain/clients/model.js';
import { CheckpointPagingQuery, MAX_PER_PAGE, OffsetPagingQuery, parsePaging } from '../paging.js';
import { isRecord, managementRoute, sendSerialized, type ManagementRouteFactory } from '../route.js';
import { CLIENT_APP_TYPES, CLIENT_FIELDS, clientSchemas } from './fields.js';
import { ClientListResponse } from './schema.js';
import { checkpointScope, unreadableFields, type ClientQuery, type ClientService, type FieldSelection } from './service.js';
import type { ClientFilter } from '../../domain/clients/store.js';

const FIELDS_DESCRIPTION =
  'Comma-separated list of fields to include or exclude (based on value provided for include_fields) in the result. Leave empty to retrieve all fields.';
const APP_TYPE_DESCRIPTION = 'Optional filter by a comma-separated list of application types.';
const Q_DESCRIPTION =
  'Advanced Query in Lucene syntax. Permitted Queries: client_grant.organization_id:{organization_id}, client_grant.allow_any_organization:true.';

export const ListClientsQuery = Type.Object(
  {
    fields: Type.Optional(Type.String({ description: FIELDS_DESCRIPTION })),
    include_fields: Type.Optional(Type.Boolean({ description: 'Whether specified fields are to be included (true) or excluded (false).' })),
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_PER_PAGE, description: 'Number of results per page. Default value is 50, maximum value is 100' }),
    ),
    include_totals: Type.Optional(
      Type.Boolean({
        description: 'Return results inside an object that contains the total result count (true) or as a direct array of results (false, default).',
      }),
    ),
    from: Type.Optional(CheckpointPagingQuery.from),
    take: Type.Optional(CheckpointPagingQuery.take),
    is_global: Type.Optional(Type.Boolean({ description: 'Optional filter on the global client parameter.' })),
    is_first_party: Type.Optional(Type.Boolean({ description: 'Optional filter on whether or not a client is a first-party client.' })),
    app_type: Type.Optional(Type.String({ description: APP_TYPE_DESCRIPTION })),
    external_client_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 120, description: 'Optional filter by the Client ID Metadata Document URI of registered clients.' }),
    ),
    q: Type.Optional(Type.String({ description: Q_DESCRIPTION })),
  },
  { additionalProperties: true },
);
type Query = Static<typeof ListClientsQuery>;

function queryError(property: string, description: string, message: string): ManagementError {
  return new ManagementError(400, `Query validation error: '${message}' on property ${property} (${description}).`, 'invalid_query_string');
}

function parseSelection(query: Query): FieldSelection {
  if (query.fields === undefined || query.fields.trim() === '') return { mode: 'all' };
  const fields = query.fields.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = fields.find((f) => !CLIENT_FIELDS.has(f));
  if (unknown !== undefined) {
    throw queryError(
      'fields',
      FIELDS_DESCRIPTION,
      `String '${unknown}' does not match pattern. Must be a comma separated list of the following values: ${[...CLIENT_FIELDS].join(',')}`,
    );
  }
  return { mode: query.include_fields === false ? 'exclude' : 'include', fields: new Set(fields) };
}

function parseFilter(query: Query): ClientFilter {
  const filter: ClientFilter = {};
  if (query.is_global !== undefined) filter.global = query.is_global;
  if (query.is_first_party !== undefined) filter.isFirstParty = query.is_first_party;
  if (query.external_client_id !== undefined) filter.externalClientId = query.external_client_id;
  if (query.app_type !== undefined) {
    const types = query.app_type.split(',').map((t) => t.trim()).filter(Boolean);
    const bad = types.find((t) => !CLIENT_APP_TYPES.includes(t));
    if (bad !== undefined || !types.length) throw queryError('app_type', APP_TYPE_DESCRIPTION, `No enum match for: ${bad ?? ''}`);
    filter.appTypes = types;
  }
  return filter;
}

/** The two permitted `q` queries (spec, operation 1, rules for q). */
function parseQ(query: Query): ClientQuery | undefined {
  if (query.q === undefined) return undefined;
  const q = query.q.trim();
  const org = /^client_grant\.organization_id:(org_[A-Za-z0-9]+)$/.exec(q);
  const parsed: ClientQuery | undefined = org
    ? { kind: 'organization', organizationId: org[1]! }
    : q === 'client_grant.allow_any_organization:true'
      ? { kind: 'any_organization' }
      : undefined;
  if (!parsed) {
    throw queryError(
      'q',
      Q_DESCRIPTION,
      'Only client_grant.organization_id:{organization_id} and client_grant.allow_any_organization:true are permitted',
    );
  }
  const other = (['is_global', 'is_first_party', 'app_type', 'external_client_id'] as const).find((f) => query[f] !== undefined);
  if (other) throw queryError('q', Q_DESCRIPTION, `q cannot be used in combination with other filters (${other})`);
  if (query.from === undefined && query.take === undefined) {
    throw queryError('q', Q_DESCRIPTION, 'q requires the from and take paging parameters (checkpoint pagination)');
  }
  return parsed;
}

export const listClients: ManagementRouteFactory<ClientService, CheckpointSealing> = (ctx, clients) => managementRoute({
  method: 'GET',
  url: '/clients',
  config: {
    scopes: ['read:clients', 'read:client_keys', 'read:client_credentials', 'read:client_summary'],
    // onRequest, before validation: the query is whatever was parsed.
    extraRateLimitClass: (request: FastifyRequest) =>
      isRecord(request.query) && request.query.q !== undefined ? 'management_clients_query' : undefined,
  },
  schema: { querystring: ListClientsQuery, response: { 200: ClientListResponse } },
  handler: async (request, reply) => {
    const query = request.query;
    const access = fieldAccess(request.principal!.scopes);
    const selection = parseSelection(query);
    if (selection.mode === 'include') {
      const denied = unreadableFields(selection.fields, access);
      if (denied) throw denied;
    }
    const q = parseQ(query);
    const filter = q ? {} : parseFilter(query);
    const paging = parsePaging(query, ctx.box, checkpointScope(request.tenant), ctx.now());
    const list = await clients.list(request.tenant, filter, paging, q, access, selection);
    // The one shape this page has, with the fields the token may read: no union for the serializer to try.
    const schemas = clientSchemas(access);
    const shape = paging.kind === 'checkpoint' ? schemas.checkpoint : paging.includeTotals ? schemas.offset : schemas.array;
    return sendSerialized(reply, shape, list);
  },
});
