/**
 * What the two polled request tables (device authorization and CIBA
 * requests) do the same way: pace the polling, and spend an approved request
 * once, each in one conditional UPDATE so that concurrent polls agree.
 */
import type { Kysely } from 'kysely';
import type { Db } from '../database.js';
import { ArtefactTable } from './expiring-artefacts.js';

export type PolledTable = 'device_codes' | 'backchannel_auth_requests';

// The table comes from the union above, never from input; Kysely cannot type a table chosen at run time.
type Untyped = Kysely<any>;

/** Records a poll at `now` when the last was at or before `notAfter` (or none); false when polled too fast. */
export async function recordPoll(db: Db, table: PolledTable, tenantId: string, id: string, now: string, notAfter: string): Promise<boolean> {
  const result = await (db as unknown as Untyped)
    .updateTable(table)
    .set({ last_polled_at: now })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb('last_polled_at', '<=', notAfter)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Spends an approved request at `now`, once; false for every later call. Its expiry is not checked:
 * the approval was given before it, and the client may poll for the tokens after.
 */
export async function consumeApproved(db: Db, table: PolledTable, tenantId: string, id: string, now: string): Promise<boolean> {
  const spent = await new ArtefactTable(db, table).spend({ tenant_id: tenantId, id }, now, {}, { conditions: [['status', '=', 'approved']], unexpired: false });
  return spent !== undefined;
}
