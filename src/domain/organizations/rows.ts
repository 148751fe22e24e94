/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/** `OrganizationBranding` of the service's OpenAPI document. */
export interface OrganizationBranding {
  logo_url?: string;
  colors?: { primary: string; page_background: string };
}

export interface OrganizationRow {
  tenant_id: string;
  id: string;
  name: string;
  display_name: string | null;
  branding: OrganizationBranding | null;
  metadata: Record<string, string>;
  created_at: string;
}

export interface OrganizationClientGrantRow {
  tenant_id: string;
  organization_id: string;
  grant_id: string;
  created_at: string;
}

/** Members of organizations (migration 0040). */
export interface OrganizationMemberRow {
  tenant_id: string;
  organization_id: string;
  user_id: string;
  created_at: string;
}

/** Roles organization members hold in that organization (migration 0040). */
export interface OrganizationMemberRoleRow {
  tenant_id: string;
  organization_id: string;
  user_id: string;
  role_id: string;
  created_at: string;
}

/** Connections enabled for organizations (migration 0040); booleans as 0/1. */
export interface OrganizationConnectionRow {
  tenant_id: string;
  organization_id: string;
  connection_id: string;
  assign_membership_on_login: number;
  show_as_button: number;
  is_signup_enabled: number;
  created_at: string;
}

/** Email domains by which the organization prompt finds an organization (migration 0055); booleans as 0/1. */
export interface OrganizationDiscoveryDomainRow {
  tenant_id: string;
  /** `ordd_…` */
  id: string;
  organization_id: string;
  /** Lower case. */
  domain: string;
  status: 'pending' | 'verified';
  use_for_organization_discovery: number;
  verification_txt: string;
  created_at: string;
}

/**
 * Invitations to organizations (migration 0040): the ticket under its SHA-256
 * (lookup) and sealed under the master key (the invitation URL is shown again).
 */
export interface OrganizationInvitationRow {
  tenant_id: string;
  /** `uinv_…` */
  id: string;
  organization_id: string;
  ticket_hash: string;
  ticket_enc: string;
  inviter_name: string;
  invitee_email: string;
  client_id: string;
  connection_id: string | null;
  app_metadata: JsonObject;
  user_metadata: JsonObject;
  /** Role ids the invitee gets in the organization. */
  roles: string[];
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
