/**
 * Identifiers that may be used once (a client assertion's or a DPoP proof's
 * `jti`), per tenant and purpose, until they expire: a replay is refused in
 * every process sharing the database.
 * Implemented by src/storage/kysely/one-time-uses.ts; the composition root builds one.
 */
export interface OneTimeUseStore {
  /**
   * Records the first use of `keyHash` (the SHA-256 of the identifier) for
   * `purpose`, remembered until `expiresAt` (ISO); false when it was already
   * used and has not expired at `now` (ISO). Of two concurrent calls exactly
   * one gets true.
   */
  use(tenantId: string, purpose: string, keyHash: string, expiresAt: string, now: string): Promise<boolean>;
  /** Whether `keyHash` was used for `purpose` and its record is still live at `now`: a read, nothing recorded. */
  used(tenantId: string, purpose: string, keyHash: string, now: string): Promise<boolean>;
}
