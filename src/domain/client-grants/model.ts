import type { ClientGrantRow } from '../rows.js';

export type { ClientGrantRow } from '../rows.js';

/** A client grant as the Management API returns it. Unset optional members are omitted. */
export interface ClientGrant {
  id: string;
  client_id?: string;
  audience: string;
  scope: string[];
  organization_usage?: string;
  allow_any_organization?: boolean;
  is_system: boolean;
  subject_type?: string;
  authorization_details_types?: string[];
  allow_all_scopes?: boolean;
  default_for?: string;
}

export function clientGrantFromRow(row: ClientGrantRow): ClientGrant {
  const grant: ClientGrant = { id: row.id, audience: row.audience, scope: [...row.scope], is_system: row.is_system === 1 };
  if (row.client_id !== null) grant.client_id = row.client_id;
  if (row.organization_usage !== null) grant.organization_usage = row.organization_usage;
  if (row.allow_any_organization !== null) grant.allow_any_organization = row.allow_any_organization === 1;
  grant.subject_type = row.subject_type;
  const types = row.authorization_details_types;
  if (types.length) grant.authorization_details_types = [...types];
  if (row.allow_all_scopes !== null) grant.allow_all_scopes = row.allow_all_scopes === 1;
  if (row.default_for !== null) grant.default_for = row.default_for;
  return grant;
}
