
import type { ResourceServerScope } from '../rows.js';

export type { ResourceServerRow, ResourceServerScope } from '../rows.js';

/** Members kept in the `options` JSON column: set rarely, read only by the Management API. */
export const OPTION_MEMBERS = [
  'allow_online_access',
  'allow_online_access_with_ephemeral_sessions',
  'token_encryption',
  'consent_policy',
  'authorization_details',
  'proof_of_possession',
  'subject_type_authorization',
  'authorization_policy',
] as const;

/** A resource server (API) as the Management API returns it. */
export interface ResourceServer {
  id: string;
  name: string;
  is_system: boolean;
  identifier: string;
  scopes: ResourceServerScope[];
  signing_alg: string;
  signing_secret?: string;
  allow_offline_access: boolean;
  skip_consent_for_verifiable_first_party_clients: boolean;
  token_lifetime: number;
  token_lifetime_for_web: number;
  enforce_policies: boolean;
  token_dialect: string;
  [option: string]: unknown;
}

/** Default access-token lifetime of an API, seconds (the service's default). */
export const DEFAULT_TOKEN_LIFETIME = 86_400;
export const DEFAULT_TOKEN_LIFETIME_FOR_WEB = 7_200;

export function signingSecretContext(tenantId: string, id: string): string {
  return `resource_server_signing_secret:${tenantId}:${id}`;
}

/** The scope descriptions of an API, from its `scopes` column; anything but a list of scopes reads as no scopes. */
export function scopeDescriptions(scopes: unknown): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  if (!Array.isArray(scopes)) return out;
  for (const scope of scopes as Partial<ResourceServerScope>[]) {
    if (typeof scope?.value === 'string') out.set(scope.value, typeof scope.description === 'string' ? scope.description : undefined);
  }
  return out;
}
