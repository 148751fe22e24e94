/**
 * What the endpoint says of itself (RFC 7644 §4): /ServiceProviderConfig
 * (PATCH and filtering yes, bulk, sort, ETags and password change no),
 * /ResourceTypes (User, with the enterprise extension, and Group) and
 * /Schemas (the User and EnterpriseUser attributes Gatehouse keeps, and
 * Group's, RFC 7643 §4).
 */
import { CORE_GROUP_SCHEMA, CORE_USER_SCHEMA, ENTERPRISE_USER_SCHEMA } from '../../domain/scim/mapping.js';
import { MAX_CANDIDATES } from './filter.js';

export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** The largest `count` a list answers; a larger one is clamped (RFC 7644 §3.4.2.4). */
export const MAX_COUNT = 100;

type Attribute = { name: string; type: string; multiValued: boolean; required?: boolean; subAttributes?: Attribute[]; uniqueness?: string };

const string = (name: string, extra: Partial<Attribute> = {}): Attribute => ({ name, type: 'string', multiValued: false, ...extra });
const multi = (name: string, subs: string[]): Attribute => ({ name, type: 'complex', multiValued: true, subAttributes: [...subs.map((s) => string(s)), { name: 'primary', type: 'boolean', multiValued: false }] });

/** The core User attributes (RFC 7643 §4.1), the names PATCH paths may start with. */
export const USER_ATTRIBUTES: readonly Attribute[] = [
  string('userName', { required: true, uniqueness: 'server' }),
  { name: 'name', type: 'complex', multiValued: false, subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((s) => string(s)) },
  string('displayName'),
  string('nickName'),
  string('profileUrl'),
  string('title'),
  string('userType'),
  string('preferredLanguage'),
  string('locale'),
  string('timezone'),
  { name: 'active', type: 'boolean', multiValued: false },
  string('password'),
  multi('emails', ['value', 'display', 'type']),
  multi('phoneNumbers', ['value', 'display', 'type']),
  multi('ims', ['value', 'display', 'type']),
  multi('photos', ['value', 'display', 'type']),
  { name: 'addresses', type: 'complex', multiValued: true, subAttributes: ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((s) => string(s)) },
  multi('groups', ['value', '$ref', 'display', 'type']),
  multi('entitlements', ['value', 'display', 'type']),
  multi('roles', ['value', 'display', 'type']),
  multi('x509Certificates', ['value', 'display', 'type']),
];

export const ENTERPRISE_ATTRIBUTES: readonly Attribute[] = [
  string('employeeNumber'),
  string('costCenter'),
  string('organization'),
  string('division'),
  string('department'),
  { name: 'manager', type: 'complex', multiValued: false, subAttributes: [string('value'), string('$ref'), string('displayName')] },
];

/** The Group attributes (RFC 7643 §4.2). */
export const GROUP_ATTRIBUTES: readonly Attribute[] = [
  string('displayName', { required: true, uniqueness: 'server' }),
  { name: 'members', type: 'complex', multiValued: true, subAttributes: [string('value'), string('$ref'), string('display'), string('type')] },
];

export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: 'https://gatehouse.dev/scim',
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: Math.min(MAX_COUNT, MAX_CANDIDATES) },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'OAuth Bearer Token', description: 'A SCIM token of the connection (Management API: POST /connections/{id}/scim-configuration/tokens)', primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string): Record<string, unknown>[] {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      schema: CORE_USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      schema: CORE_GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

export function schemas(baseUrl: string): Record<string, unknown>[] {
  return [
    { id: CORE_USER_SCHEMA, name: 'User', description: 'User Account', attributes: USER_ATTRIBUTES },
    { id: ENTERPRISE_USER_SCHEMA, name: 'EnterpriseUser', description: 'Enterprise User', attributes: ENTERPRISE_ATTRIBUTES },
    { id: CORE_GROUP_SCHEMA, name: 'Group', description: 'Group', attributes: GROUP_ATTRIBUTES },
  ].map((schema) => ({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'], ...schema, meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` } }));
}

export const listResponse = (resources: unknown[], total: number, startIndex: number) => ({
  schemas: [LIST_RESPONSE_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
