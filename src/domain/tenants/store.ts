/**
 * Storage of tenants, created with everything a new tenant starts with.
 * Implemented by src/storage/kysely/tenants.ts; the composition root builds one.
 */
import type { ClientGrantRow } from '../client-grants/rows.js';
import type { ClientRow } from '../clients/rows.js';
import type { ConnectionRow } from '../connections/rows.js';
import type { SigningKeyRow } from '../keys/rows.js';
import type { ResourceServerRow } from '../resource-servers/rows.js';
import type { TenantRow } from './rows.js';
import type { TenantSettings } from './settings.js';

export interface TenantBundle {
  tenant: TenantRow;
  signingKeys: SigningKeyRow[];
  clients: ClientRow[];
  resourceServers: ResourceServerRow[];
  clientGrants: ClientGrantRow[];
  /** Connections the tenant starts with, each enabled for the listed clients (of `clients`). */
  connections?: StartingConnection[];
}

export interface StartingConnection {
  row: ConnectionRow;
  enabledClients: string[];
}

/** Storage of tenants. */
export interface TenantStore {
  /** Inserts a tenant with everything it starts with, atomically: all rows or none. */
  create(bundle: TenantBundle): Promise<void>;
  /** The tenant serving this domain (host[:port], lower case), or undefined. */
  getByDomain(domain: string): Promise<TenantRow | undefined>;
  getByName(name: string): Promise<TenantRow | undefined>;
  getById(id: string): Promise<TenantRow | undefined>;
  /**
   * The tenant's row, locked until the surrounding transaction ends (a
   * read-modify-write of its settings: two concurrent changes to different
   * settings both survive). Call inside `unitOfWork.transaction`.
   */
  getByIdForUpdate(id: string): Promise<TenantRow | undefined>;
  /** Every tenant, by creation time. */
  list(): Promise<TenantRow[]>;
  /** Replaces the settings JSON; false when the tenant does not exist. */
  updateSettings(id: string, settings: TenantSettings): Promise<boolean>;
}
