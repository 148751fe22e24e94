/**
 * Storage of CIBA requests (OpenID CIBA Core 1.0, poll mode).
 * Implemented by src/storage/kysely/backchannel-auth-requests.ts; the composition root builds one.
 */
import type { BackchannelAuthRequestRow } from './rows.js';

export interface BackchannelAuthRequestStore {
  /** Stores a new request; a unique violation when a hash is taken. */
  insert(row: BackchannelAuthRequestRow): Promise<void>;
  findByAuthReqId(tenantId: string, authReqIdHash: string): Promise<BackchannelAuthRequestRow | undefined>;
  findByTicket(tenantId: string, ticketHash: string): Promise<BackchannelAuthRequestRow | undefined>;
  /** Records a poll at `now` when the last was at or before `notAfter` (or none); false when polled too fast. */
  recordPoll(tenantId: string, id: string, now: string, notAfter: string): Promise<boolean>;
  /** The user's decision on a pending, unexpired request, once; false otherwise. */
  decide(tenantId: string, id: string, now: string, decision: 'approved' | 'denied'): Promise<boolean>;
  /** Spends an approved request, once. */
  consume(tenantId: string, id: string, now: string): Promise<boolean>;
}
