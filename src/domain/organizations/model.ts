import type { OrganizationBranding, OrganizationRow } from '../rows.js';

export type { OrganizationBranding, OrganizationRow } from '../rows.js';

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
  if (row.branding !== null) organization.branding = row.branding;
  const metadata = row.metadata;
  if (Object.keys(metadata).length) organization.metadata = metadata;
  return organization;
}
