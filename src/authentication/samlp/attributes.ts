/**
 * The user's profile as SAML attributes, as the service's SAML2 Web App addon
 * builds them (authentication-api-wire-notes §14; the service's "Customize
 * SAML assertions" page):
 *
 * - the profile: user_id, email, email_verified, name, given_name,
 *   family_name, nickname, picture, created_at, updated_at, clientID, and
 *   the identity (provider, connection, isSocial);
 * - default mappings to the WS-Federation claim URIs (`user_id` →
 *   …/claims/nameidentifier, `email` → emailaddress, `name`, `given_name` →
 *   givenname, `family_name` → surname), the addon's `mappings` over them
 *   (a profile member, or `user_metadata.x` / `app_metadata.x`, to one or
 *   several attribute names);
 * - `createUpnClaim`: …/claims/upn from the email;
 * - `passthroughClaimsWithNoMapping`: every other scalar member, named
 *   `http://schemas.auth0.com/{member}` (the names the service's responses
 *   carry), or the member's own name with `mapUnknownClaimsAsIs`;
 * - `mapIdentities`: `http://schemas.auth0.com/identities/default/{provider,
 *   connection,isSocial}`.
 *
 * The NameID is the first of `nameIdentifierProbes` that has a value.
 */
import type { SamlpSettings } from '../../domain/clients/samlp-addon.js';
import { CLAIMS } from '../../domain/clients/samlp-addon.js';
import type { UserRow } from '../../domain/rows.js';

export type AttributeValue = string | number | boolean;
/** Attribute name → its values, in the order they are emitted. */
export type Attributes = Map<string, AttributeValue[]>;

const AUTH0_SCHEMA = 'http://schemas.auth0.com';

const DEFAULT_MAPPINGS: Readonly<Record<string, string>> = {
  user_id: `${CLAIMS}/nameidentifier`,
  email: `${CLAIMS}/emailaddress`,
  name: `${CLAIMS}/name`,
  given_name: `${CLAIMS}/givenname`,
  family_name: `${CLAIMS}/surname`,
};

export interface ProfileIdentity {
  provider: string;
  connection: string;
  isSocial: boolean;
}

/** The profile members the attributes are made from (no password hash, no metadata unless mapped). */
export function samlProfile(user: UserRow, clientId: string, identity: ProfileIdentity): Record<string, unknown> {
  const profile: Record<string, unknown> = { user_id: user.user_id };
  if (user.email !== null) profile.email = user.email;
  profile.email_verified = user.email_verified === 1;
  for (const key of ['name', 'given_name', 'family_name', 'nickname', 'picture', 'username', 'phone_number'] as const) {
    if (user[key] !== null) profile[key] = user[key];
  }
  profile.clientID = clientId;
  profile.created_at = user.created_at;
  profile.updated_at = user.updated_at;
  profile.identities = [identity];
  profile.user_metadata = user.user_metadata;
  profile.app_metadata = user.app_metadata;
  return profile;
}

const isScalar = (value: unknown): value is AttributeValue => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A scalar or a list of scalars as attribute values; anything else has none. */
function valuesOf(value: unknown): AttributeValue[] {
  if (isScalar(value)) return [value];
  if (Array.isArray(value) && value.every(isScalar)) return value;
  return [];
}

/** An own member only: a mapping named after a member of Object.prototype (`constructor`) reads nothing. */
const own = (record: object, name: string): unknown => (Object.hasOwn(record, name) ? (record as Record<string, unknown>)[name] : undefined);

/** A mapping's source: a profile member, or one level into user_metadata / app_metadata. */
function lookup(profile: Record<string, unknown>, path: string): unknown {
  const dot = path.indexOf('.');
  if (dot > 0 && (path.startsWith('user_metadata.') || path.startsWith('app_metadata.'))) {
    const container = own(profile, path.slice(0, dot));
    return container !== null && typeof container === 'object' ? own(container, path.slice(dot + 1)) : undefined;
  }
  return own(profile, path);
}

function add(attributes: Attributes, name: string, values: AttributeValue[]): void {
  if (values.length === 0 || attributes.has(name)) return;
  attributes.set(name, values);
}

export function samlAttributes(profile: Record<string, unknown>, settings: SamlpSettings): Attributes {
  const attributes: Attributes = new Map();
  const mappings: Record<string, string | readonly string[]> = { ...DEFAULT_MAPPINGS, ...settings.mappings };
  for (const [member, targets] of Object.entries(mappings)) {
    const values = valuesOf(lookup(profile, member));
    for (const target of [targets].flat()) add(attributes, target, values);
  }
  if (settings.createUpnClaim) add(attributes, `${CLAIMS}/upn`, valuesOf(profile.email));
  if (settings.passthroughClaimsWithNoMapping) {
    for (const [member, value] of Object.entries(profile)) {
      if (Object.hasOwn(mappings, member)) continue;
      add(attributes, settings.mapUnknownClaimsAsIs ? member : `${AUTH0_SCHEMA}/${member}`, valuesOf(value));
    }
  }
  if (settings.mapIdentities) {
    const identity = (profile.identities as ProfileIdentity[] | undefined)?.[0];
    if (identity) {
      add(attributes, `${AUTH0_SCHEMA}/identities/default/provider`, [identity.provider]);
      add(attributes, `${AUTH0_SCHEMA}/identities/default/connection`, [identity.connection]);
      add(attributes, `${AUTH0_SCHEMA}/identities/default/isSocial`, [identity.isSocial]);
    }
  }
  return attributes;
}

/** The NameID value: the first probe with a value; undefined when none has one. */
export function nameIdentifier(attributes: Attributes, settings: SamlpSettings): string | undefined {
  for (const probe of settings.nameIdentifierProbes) {
    const value = attributes.get(probe)?.[0];
    if (value !== undefined && String(value) !== '') return String(value);
  }
  return undefined;
}
