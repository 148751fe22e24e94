/**
 * Storage of device authorization requests (RFC 8628).
 * Implemented by src/storage/kysely/device-codes.ts; the composition root builds one.
 */
import type { DeviceCodeRow } from './rows.js';

/** What an approval records: the login and what it granted. */
export type DeviceApproval = Pick<DeviceCodeRow, 'user_id' | 'session_id' | 'auth_time' | 'scope' | 'audience' | 'organization_id'>;

export interface DeviceCodeStore {
  /** Stores a new request; a unique violation when either code's hash is taken. */
  insert(row: DeviceCodeRow): Promise<void>;
  get(tenantId: string, id: string): Promise<DeviceCodeRow | undefined>;
  findByDeviceCode(tenantId: string, deviceCodeHash: string): Promise<DeviceCodeRow | undefined>;
  findByUserCode(tenantId: string, userCodeHash: string): Promise<DeviceCodeRow | undefined>;
  /**
   * Records a poll at `now` when the previous one was at or before
   * `notAfter` (or there was none), in one conditional UPDATE; false when the
   * client polls too fast.
   */
  recordPoll(tenantId: string, id: string, now: string, notAfter: string): Promise<boolean>;
  /** Approves a pending, unexpired request; false otherwise. */
  approve(tenantId: string, id: string, now: string, approval: DeviceApproval): Promise<boolean>;
  /** Denies a pending, unexpired request; false otherwise. */
  deny(tenantId: string, id: string, now: string): Promise<boolean>;
  /** Marks the expiry reported; true only for the first call. */
  reportExpiry(tenantId: string, id: string): Promise<boolean>;
  /** Spends an approved request at `now`, once; false for every later call. */
  consume(tenantId: string, id: string, now: string): Promise<boolean>;
}
