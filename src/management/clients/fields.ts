/**
 * Which client fields a response may carry: the names the `fields` parameter
 * accepts, and the response schemas per token scope (spec, Authentication
 * part, item 3), both derived from the generated response schema
 * (./schema.ts) rather than kept by hand. Which scope reads which field is the
 * domain's rule (src/domain/clients/model.ts, `canRead`).
 */
import type { TSchema } from '@sinclair/typebox';
import { canRead, type FieldAccess } from '../../domain/clients/model.js';
import { CLIENT_RESPONSE_FIELDS, ClientResponse, clientListShapes, clientResponseWith } from './schema.js';

/** The app types (spec, Client table), for the `app_type` filter. */
export const CLIENT_APP_TYPES: readonly string[] = [
  'native', 'spa', 'regular_web', 'non_interactive', 'resource_server', 'express_configuration', 'rms', 'box', 'cloudbees', 'concur',
  'dropbox', 'mscrm', 'echosign', 'egnyte', 'newrelic', 'office365', 'salesforce', 'sentry', 'sharepoint', 'slack', 'springcm',
  'zendesk', 'zoom', 'sso_integration', 'oag',
];

/**
 * Names the `fields` parameter accepts that the document's Client does not
 * declare, so that no response carries them: the legacy names of the spec's
 * field-scope list (Authentication, item 3), `cross_origin_auth` (older
 * recordings of the service) and `oidc_backchannel_logout` (the deprecated
 * request member).
 */
export const LEGACY_CLIENT_FIELDS: readonly string[] = [
  'config_route', 'callback_url_template', 'api_type', 'owners', 'custom_login_page_off', 'custom_login_page_codeview',
  'resource_servers', 'signing_key', 'cross_origin_auth', 'oidc_backchannel_logout',
];

/** Every field `fields` may name: the response Client's, then the legacy names. */
export const CLIENT_FIELDS: ReadonlySet<string> = new Set([...CLIENT_RESPONSE_FIELDS, ...LEGACY_CLIENT_FIELDS]);

/** The response schemas of one level of access: a client, and each shape of the list. */
export interface ClientSchemas {
  client: TSchema;
  array: TSchema;
  offset: TSchema;
  checkpoint: TSchema;
}

function schemasWith(client: TSchema): ClientSchemas {
  return { client, ...clientListShapes(client) };
}

/** Built once per level of access, so that Fastify compiles each serializer once per route. */
const BY_ACCESS = new Map<string, ClientSchemas>(
  [false, true].flatMap((config) =>
    [false, true].map((credentials): [string, ClientSchemas] => {
      const access = { config, credentials };
      const readable = new Set(CLIENT_RESPONSE_FIELDS.filter((field) => canRead(field, access)));
      const client = readable.size === CLIENT_RESPONSE_FIELDS.length ? ClientResponse : clientResponseWith(readable);
      return [key(access), schemasWith(client)];
    }),
  ),
);

function key(access: FieldAccess): string {
  return `${access.config}:${access.credentials}`;
}

/**
 * The response schemas a token with `access` gets: the Client without the
 * members it may not read, so they cannot be serialised whatever the object
 * handed to the serializer holds.
 */
export function clientSchemas(access: FieldAccess): ClientSchemas {
  return BY_ACCESS.get(key(access))!;
}
