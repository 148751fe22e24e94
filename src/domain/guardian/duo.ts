/**
 * The Duo factor's settings, per tenant (/guardian/factors/duo/settings):
 * the integration key (`ikey`), the secret key (`skey`, sealed under
 * `duoSecretKeyContext`, never answered) and the API host name (`host`).
 * The `duo` factor (src/domain/mfa/duo.ts) reads them.
 */

/** The settings as stored; null members were never set (or were cleared by a PUT that left them out). */
export interface DuoSettings {
  ikey: string | null;
  host: string | null;
  /** Sealed under duoSecretKeyContext. */
  skey_enc: string | null;
}

/** A row of `guardian_duo` (src/storage/migrations/0276_guardian_duo.ts). */
export interface GuardianDuoRow extends DuoSettings {
  tenant_id: string;
  updated_at: string;
}

export function duoSecretKeyContext(tenantId: string): string {
  return `guardian_duo_skey:${tenantId}`;
}

/**
 * Storage of the Duo settings. Implemented by src/storage/kysely/guardian-duo.ts.
 */
export interface GuardianDuoStore {
  /** The tenant's settings; undefined when never written. */
  get(tenantId: string): Promise<DuoSettings | undefined>;
  /** Replaces the tenant's settings (creating the row). One statement. */
  set(tenantId: string, settings: DuoSettings, updatedAt: string): Promise<void>;
}
