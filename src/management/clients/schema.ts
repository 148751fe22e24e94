/**
 * Client schemas: the service's published request schemas and its `Client`
 * response schema (extracted with every $ref resolved into
 * oas-schemas.generated.json by scripts/extract-oas-schemas.mjs). The
 * response's rules are below, with it. On the requests the specification's
 * rules are layered where it says more than the OpenAPI document (the spec wins):
 *
 * - `name`: min length 1 (besides the `<`/`>` pattern);
 * - `client_metadata`: values strings of at most 255, names at most 255 of
 *   the allowed characters, at most 10 properties;
 * - `oidc_logout.backchannel_logout_urls`: one URL at most;
 * - `express_configuration.vendor_oin_client_id` (the spec's name) required;
 * - `grant_types`: only the grant types the document's description lists
 *   (it declares no enum, so any string would otherwise pass);
 * - `third_party_security_mode`: settable on create only, so not in the update schema;
 * - every object member but `client_metadata` (bounded above) at most
 *   FREE_OBJECT_MAX_BYTES serialised: several (`addons.*`, `oidc_logout`,
 *   `mobile`, `jwt_configuration`, `encryption_key`) allow any members and the
 *   document states no size for them.
 *
 * Rules that relate two fields (`post_login_prompt` needs `oidc_conformant`)
 * are checked in the service.
 */
import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { FREE_OBJECT_MAX_BYTES, maxJsonBytes } from '../../platform/http/schema-types.js';
import oas from './oas-schemas.generated.json' with { type: 'json' };
import type { SchemaNode } from '../json-schema.js';

type Schema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>>; required?: string[] };

// Imported (not read from disk) so that the build copies it into dist/ with the code.
const generated = oas as unknown as { schemas: Record<string, Schema> };

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** client_metadata names: alphanumerics and :,-+=_*?"/\()<>@ tab and space. */
const METADATA_NAME_PATTERN = '^[A-Za-z0-9:,\\-+=_*?"/\\\\()<>@\\t ]+$';

/** The grant types of the service, as the description of `grant_types` lists them (in its order). */
export const CLIENT_GRANT_TYPES = [
  'authorization_code',
  'implicit',
  'refresh_token',
  'client_credentials',
  'password',
  'http://auth0.com/oauth/grant-type/password-realm',
  'http://auth0.com/oauth/grant-type/mfa-oob',
  'http://auth0.com/oauth/grant-type/mfa-otp',
  'http://auth0.com/oauth/grant-type/mfa-recovery-code',
  'urn:openid:params:grant-type:ciba',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:auth0:params:oauth:grant-type:token-exchange:federated-connection-access-token',
  // Not in the description's list, but the grant Dashboard calls "Passwordless OTP" (wire notes §5.1).
  'http://auth0.com/oauth/grant-type/passwordless/otp',
] as const;

const isObjectSchema = (member: Record<string, unknown>) => member.type === 'object' || (Array.isArray(member.type) && member.type.includes('object'));

function applySpecRules(schema: Schema): Schema {
  const p = schema.properties;
  for (const [key, member] of Object.entries(p)) {
    if (key !== 'client_metadata' && isObjectSchema(member)) p[key] = { ...member, ...maxJsonBytes(FREE_OBJECT_MAX_BYTES) };
  }
  p.name = { ...p.name, minLength: 1 };
  const grantTypes = p.grant_types as { items?: Record<string, unknown> } | undefined;
  if (grantTypes) p.grant_types = { ...grantTypes, items: { ...grantTypes.items, enum: [...CLIENT_GRANT_TYPES] } };
  // Empty is the specification's default for these; the published schema's minLength would refuse it.
  for (const key of ['custom_login_page', 'custom_login_page_preview', 'form_template']) {
    if (p[key]) delete p[key].minLength;
  }
  // "object or null" in the specification's Client table.
  if (p.client_authentication_methods) p.client_authentication_methods = { ...p.client_authentication_methods, type: ['object', 'null'] };
  p.client_metadata = {
    ...p.client_metadata,
    maxProperties: 10,
    // The description repeats the property's so that errors about a name read like errors about the property.
    propertyNames: { maxLength: 255, pattern: METADATA_NAME_PATTERN, description: p.client_metadata?.description },
    additionalProperties: { type: 'string', maxLength: 255, description: 'Client metadata value (max 255 chars).' },
  };
  for (const key of ['oidc_logout', 'oidc_backchannel_logout']) {
    const logout = p[key] as { properties?: Record<string, Record<string, unknown>> } | undefined;
    if (logout?.properties?.backchannel_logout_urls) logout.properties.backchannel_logout_urls.maxItems = 1;
  }
  renameVendorOinClientId(schema);
  return schema;
}

/** `express_configuration.okta_oin_client_id` is `vendor_oin_client_id` in the specification. */
function renameVendorOinClientId(schema: Schema): void {
  const express = schema.properties.express_configuration as Schema | undefined;
  if (express?.properties?.okta_oin_client_id) {
    express.properties.vendor_oin_client_id = {
      ...express.properties.okta_oin_client_id,
      description: 'The client identifier of the application in the vendor network.',
    };
    delete express.properties.okta_oin_client_id;
    express.required = (express.required ?? []).map((r) => (r === 'okta_oin_client_id' ? 'vendor_oin_client_id' : r));
  }
}

const createBody: Schema = applySpecRules(clone(generated.schemas.CreateClientRequestContent!));

const updateBody: Schema = (() => {
  const schema = applySpecRules(clone(generated.schemas.UpdateClientRequestContent!));
  delete schema.properties.third_party_security_mode;
  return schema;
})();

export type ClientBody = Record<string, unknown> & { name?: string };

/** The generated schemas, typed for the routes (the members are checked by the schema, not by TypeScript). */
export const CreateClientBody = Type.Unsafe<ClientBody>(createBody);
export const UpdateClientBody = Type.Unsafe<ClientBody>(updateBody);

/** The description of a top-level client member, for messages the service builds itself. */
export function describeClientProperty(property: string): string | undefined {
  return createBody.properties[property]?.description as string | undefined;
}

export const ClientIdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'ID of the client.' }) });

// ---------------------------------------------------------------------------
// The response: the document's `Client`
// ---------------------------------------------------------------------------

/** A JSON Schema node of the generated document, as the response rules below read it. */
type Node = SchemaNode;

const typesOf = (node: Node): string[] | undefined => (node.type === undefined ? undefined : [node.type].flat());

/** Every node below `node` (itself included), for the rules that apply at any depth. */
function* nodes(node: Node): Generator<Node> {
  yield node;
  for (const member of Object.values(node.properties ?? {})) yield* nodes(member);
  if (node.items) yield* nodes(node.items);
  if (typeof node.additionalProperties === 'object') yield* nodes(node.additionalProperties);
  for (const alternative of [...(node.oneOf ?? []), ...(node.anyOf ?? [])]) yield* nodes(alternative);
}

/**
 * A union whose alternatives are plain types (`string`, or an array of
 * strings) as a list of types: fast-json-stringify serialises a list of types
 * with a type check, a oneOf by validating the value against each alternative.
 */
function collapsePlainUnion(node: Node): void {
  const alternatives = node.oneOf ?? node.anyOf;
  if (!alternatives || !alternatives.every((a) => typesOf(a) !== undefined && a.properties === undefined)) return;
  const types = [...new Set([...(typesOf(node) ?? []), ...alternatives.flatMap((a) => typesOf(a)!)])];
  node.type = types.length === 1 ? types[0] : types;
  const items = alternatives.find((a) => a.items)?.items;
  if (items) node.items = items;
  delete node.oneOf;
  delete node.anyOf;
}

/**
 * Widens a response member to everything its request counterpart lets a
 * client store: the request's types and enum values, and members the response
 * shape does not have (added as the request declares them).
 */
function admit(response: Node, request: Node): void {
  const responseTypes = typesOf(response);
  const requestTypes = typesOf(request);
  if (responseTypes && requestTypes) {
    const types = [...new Set([...responseTypes, ...requestTypes])];
    response.type = types.length === 1 ? types[0] : types;
  }
  if (response.enum) {
    if (request.enum) response.enum = [...new Set([...response.enum, ...request.enum])];
    else delete response.enum;
  }
  for (const [key, member] of Object.entries(request.properties ?? {})) {
    response.properties ??= {};
    if (response.properties[key]) admit(response.properties[key], member);
    else response.properties[key] = clone(member);
  }
  if (response.items && request.items) admit(response.items, request.items);
  if (request.additionalProperties !== false && response.additionalProperties === false) response.additionalProperties = true;
}

/**
 * The Client every client operation answers with: the document's `Client`
 * (which `GetClientResponseContent`, `CreateClientResponseContent`,
 * `UpdateClientResponseContent`, `RotateClientSecretResponseContent` and the
 * list shapes all are, scripts/extract-oas-schemas.mjs checks), made to
 * describe what Gatehouse stores and to serialise it exactly:
 *
 * - closed: the document leaves Client open, but a member it does not declare
 *   is not sent (STYLE 5), whatever the stored configuration holds
 *   (`oidc_backchannel_logout`, the deprecated request member, among them);
 * - each member admits what the request schemas let a client store there
 *   (`admit`): mostly the `null`s of update, which fast-json-stringify would
 *   otherwise print as `""` or `{}`; `vendor_oin_client_id`; and credentials
 *   as Gatehouse stores them (as given, with their `pem` and `name`, where the
 *   service answers with the ids of credentials it keeps apart);
 * - no `required`: fast-json-stringify throws on a missing required member,
 *   and a stored client that lacks one is answered, not a 500;
 * - no `default`: fast-json-stringify prints a missing member's default, so
 *   every client would show the document's example `client_id` and
 *   `client_secret`, and a `fields` selection would come back whole;
 * - unions of plain types as lists of types (`collapsePlainUnion`);
 * - `signing_keys` items closed to `cert`, `pkcs7` and `subject` (the
 *   document leaves them open): they are the tenant's public certificates,
 *   and no private part of a key can be serialised with them;
 * - members in the order of the service's list responses (WIRE_ORDER), then
 *   the others in the document's order: fast-json-stringify writes members in
 *   the schema's order.
 */
/**
 * The key order of a client in the service's raw list responses
 * (management-api-wire-notes §5, go-auth0 recordings; `cross_origin_auth` and
 * `callback_url_template` are left out, the document does not declare them).
 */
const WIRE_ORDER = [
  'tenant', 'global', 'is_token_endpoint_ip_header_trusted', 'name', 'description', 'organization_usage', 'default_organization',
  'is_first_party', 'sso_disabled', 'oidc_conformant', 'refresh_token', 'signing_keys', 'client_id', 'client_secret',
  'jwt_configuration', 'grant_types', 'custom_login_page_on',
];

const clientResponse: Schema = (() => {
  const schema = clone(generated.schemas.Client!) as Schema & Node;
  renameVendorOinClientId(schema);
  for (const node of nodes(schema)) collapsePlainUnion(node);
  for (const [key, member] of Object.entries(schema.properties as Record<string, Node>)) {
    for (const request of [createBody, updateBody] as (Schema & Node)[]) {
      const counterpart = request.properties[key] as Node | undefined;
      if (counterpart) admit(member, counterpart);
    }
  }
  for (const node of nodes(schema)) {
    delete node.required;
    delete node.default;
    collapsePlainUnion(node);
  }
  const signingKey = (schema.properties.signing_keys as Node).items!;
  signingKey.additionalProperties = false;
  schema.additionalProperties = false;
  const order = [...WIRE_ORDER.filter((key) => key in schema.properties), ...Object.keys(schema.properties).filter((key) => !WIRE_ORDER.includes(key))];
  schema.properties = Object.fromEntries(order.map((key) => [key, schema.properties[key]!]));
  return schema;
})();

/** A client as the Management API shows it (its members are the schema's to check; stored configuration is untyped JSON). */
export type ClientResponseBody = Record<string, unknown>;

export const ClientResponse = Type.Unsafe<ClientResponseBody>(clientResponse);

/** The members of the response Client, in the order they are written. */
export const CLIENT_RESPONSE_FIELDS: readonly string[] = Object.keys(clientResponse.properties);

/**
 * The Client restricted to `fields`: the same members, and nothing else. The
 * per-scope responses are built with it (./fields.ts), so a field the token
 * may not read has no place in the serialised body.
 */
export function clientResponseWith(fields: ReadonlySet<string>): TUnsafe<ClientResponseBody> {
  const properties = Object.fromEntries(Object.entries(clientResponse.properties).filter(([key]) => fields.has(key)));
  return Type.Unsafe<ClientResponseBody>({ ...clientResponse, properties });
}

/**
 * The three shapes of GET /clients (spec, "Client list response shapes";
 * `ListClientsOffsetPaginatedResponseContent` and
 * `ListClientsPaginatedResponseContent`), each exact, so that a handler can
 * serialise with the one it sends instead of a union. The offset object keeps
 * the key order the service's recordings show (`total, start, limit, clients`).
 */
export function clientListShapes(client: TSchema) {
  return {
    array: Type.Array(client),
    offset: Type.Object(
      { total: Type.Number(), start: Type.Number(), limit: Type.Number(), clients: Type.Array(client) },
      { additionalProperties: false },
    ),
    checkpoint: Type.Object(
      {
        clients: Type.Array(client),
        next: Type.Optional(
          Type.String({ description: 'Opaque identifier for use with the from query parameter for the next page of results. Valid for 24 hours.' }),
        ),
      },
      { additionalProperties: false },
    ),
  };
}

/** 200 of GET /clients: one of the three shapes (as the document's oneOf), with the whole Client. */
export const ClientListResponse = Type.Union(Object.values(clientListShapes(ClientResponse)));
