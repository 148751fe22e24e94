/**
 * One-use tickets mailed to users (email verification, password reset). The
 * ticket itself is 32 random bytes, base64url, sent only in the link; the
 * store keeps its SHA-256, so neither a database read nor a backup yields a
 * working link.
 */
import type { Db } from '../database.js';
import type { TicketRow } from '../schema.js';
import type { TicketKind, TicketStore } from '../../domain/tickets/store.js';

export type { TicketRow } from '../../domain/rows.js';

export class KyselyTicketStore implements TicketStore {
  /** `db` may be a transaction, so a consumption commits or rolls back with the change it allows. */
  constructor(private readonly db: Db) {}

  async insert(row: Omit<TicketRow, 'used_at'>): Promise<void> {
    await this.db.insertInto('tickets').values({ ...row, used_at: null }).execute();
  }

  findUsable(tenantId: string, idHash: string, kind: TicketKind, now: string): Promise<TicketRow | undefined> {
    return this.db
      .selectFrom('tickets')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async consume(tenantId: string, idHash: string, kind: TicketKind, now: string): Promise<string | undefined> {
    const row = await this.db
      .updateTable('tickets')
      .set({ used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('kind', '=', kind)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }
}
