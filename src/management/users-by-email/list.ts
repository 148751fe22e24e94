import { Type } from '@sinclair/typebox';
import { fieldSelection } from '../fields.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { UserResponse } from '../users/schema.js';
import type { UserService } from '../users/service.js';

/**
 * The document's query parameters. `email` is checked as an email address, as
 * the service does (a recorded 400: "Query validation error: 'Object didn't
 * pass validation for format email…'", management-api-wire-notes §2); its
 * description is the document's, which appears in that message, although
 * Gatehouse's match is case-insensitive (see UserService.listByEmail).
 */
const Query = Type.Object(
  {
    email: Type.String({ format: 'email', description: 'Email address to search for (case-sensitive)' }),
    fields: Type.Optional(
      Type.String({
        maxLength: 256,
        description:
          'Comma-separated list of fields to include or exclude (based on value provided for include_fields) in the result. Leave empty to retrieve all fields',
      }),
    ),
    include_fields: Type.Optional(
      Type.Boolean({ description: 'Whether specified fields are to be included (true) or excluded (false). Defaults to true' }),
    ),
  },
  { additionalProperties: true },
);

/** Every member optional: `fields` may leave any of them out. */
const Item = Type.Partial(UserResponse);

/** GET /api/v2/users-by-email?email= → the users with that email, one per connection at most (an array, no paging). */
export const listUsersByEmail: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'GET',
  url: '/users-by-email',
  config: { scopes: ['read:users'] },
  schema: { querystring: Query, response: { 200: Type.Array(Item) } },
  handler: async (request) => {
    const query = request.query;
    return users.listByEmail(request.tenant, query.email, fieldSelection(query));
  },
});
