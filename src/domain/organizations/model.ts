import type { OrganizationRow } from '../rows.js';

export type { OrganizationRow } from '../rows.js';

/** `OrganizationBranding` of the service's OpenAPI document. */
export interface OrganizationBranding {
  logo_url?: string;
  colors?: { primary: string; page_background: string };
}

/**
 * An organization as the Management API returns it (`Organization`). Unset
 * members are omitted, as the service does: `{"id","name"}` for an
 * organization created with a name only.
 */
export interface Organization {
  id: string;
  name: string;
  display_name?: string;
  branding?: OrganizationBranding;
  metadata?: Record<string, string>;
}

export function organizationFromRow(row: OrganizationRow): Organization {
  const organization: Organization = { id: row.id, name: row.name };
  if (row.display_name !== null) organization.display_name = row.display_name;
  if (row.branding !== null) organization.branding = JSON.parse(row.branding) as OrganizationBranding;
  const metadata = JSON.parse(row.metadata) as Record<string, string>;
  if (Object.keys(metadata).length) organization.metadata = metadata;
  return organization;
}
