import type { KeysetWindow } from '../paging.js';
import type { ScimConfigurationRow, ScimTokenRow, ScimUserRow } from './rows.js';

/** The SCIM filters the endpoint answers from an index (src/authentication/scim/filter.ts). */
export type ScimUserLookup = { by: 'user_name'; value: string } | { by: 'external_id'; value: string } | { by: 'email'; value: string };

/** A page of a connection's SCIM users: `offset` from 0, at most `limit` rows, and how many there are. */
export interface ScimUserPage {
  rows: ScimUserRow[];
  total: number;
}

export type ScimUserWrite = 'done' | 'user_name_taken';

/** Storage of SCIM provisioning (migration 0140). */
export interface ScimStore {
  /** The connection's configuration, or undefined. */
  getConfiguration(tenantId: string, connectionId: string): Promise<ScimConfigurationRow | undefined>;
  /** The tenant's configurations by connection id, after `window.after`, with their connection's name and strategy. */
  listConfigurations(tenantId: string, window: KeysetWindow): Promise<(ScimConfigurationRow & { connection_name: string; strategy: string })[]>;
  /** Inserts it; false when the connection already has one. */
  insertConfiguration(row: ScimConfigurationRow): Promise<boolean>;
  /** Changes mapping and id attribute; false when there is none. */
  updateConfiguration(tenantId: string, connectionId: string, changes: Pick<ScimConfigurationRow, 'user_id_attribute' | 'mapping' | 'deprovisioning' | 'updated_on'>): Promise<boolean>;
  /** Deletes it with its tokens (the users stay); false when there was none. */
  deleteConfiguration(tenantId: string, connectionId: string): Promise<boolean>;

  /** The connection's tokens, oldest first. */
  listTokens(tenantId: string, connectionId: string): Promise<ScimTokenRow[]>;
  /** Inserts a token unless the connection already has `max` of them; false then. Atomic per connection. */
  insertToken(row: ScimTokenRow, max: number): Promise<boolean>;
  /** false when the connection has no such token. */
  deleteToken(tenantId: string, connectionId: string, tokenId: string): Promise<boolean>;
  /** The token with this hash (`token_hash_uq`), in any tenant's connection of this tenant. */
  findToken(tenantId: string, tokenHash: string): Promise<ScimTokenRow | undefined>;
  touchToken(tenantId: string, tokenId: string, now: string): Promise<void>;

  getUser(tenantId: string, connectionId: string, userId: string): Promise<ScimUserRow | undefined>;
  /** The users matching one indexed lookup (at most `limit`). */
  findUsers(tenantId: string, connectionId: string, lookup: ScimUserLookup, offset: number, limit: number): Promise<ScimUserPage>;
  /** The connection's users by creation time. */
  listUsers(tenantId: string, connectionId: string, offset: number, limit: number): Promise<ScimUserPage>;
  /** Inserts or replaces the user's SCIM representation; `user_name_taken` when another user of the connection has the userName. */
  putUser(row: ScimUserRow): Promise<ScimUserWrite>;
  /** Deletes the user's SCIM representation (the user stays); false when there was none. */
  deleteUser(tenantId: string, connectionId: string, userId: string): Promise<boolean>;
}
