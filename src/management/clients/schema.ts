/**
 * Client schemas: the service's published request schemas (extracted with
 * every $ref resolved into oas-schemas.generated.json by
 * scripts/extract-oas-schemas.mjs), with the specification's rules layered on
 * where it says more than the OpenAPI document (the spec wins):
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
import { Type } from '@sinclair/typebox';
import { FREE_OBJECT_MAX_BYTES, maxJsonBytes } from '../../platform/http/schema-types.js';
import oas from './oas-schemas.generated.json' with { type: 'json' };

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
  const express = p.express_configuration as Schema | undefined;
  if (express?.properties?.okta_oin_client_id) {
    express.properties.vendor_oin_client_id = {
      ...express.properties.okta_oin_client_id,
      description: 'The client identifier of the application in the vendor network.',
    };
    delete express.properties.okta_oin_client_id;
    express.required = (express.required ?? []).map((r) => (r === 'okta_oin_client_id' ? 'vendor_oin_client_id' : r));
  }
  return schema;
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
