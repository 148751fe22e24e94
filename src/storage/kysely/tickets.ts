/**
 * One-use tickets mailed to users (email verification, password reset). The
 * ticket itself is 32 random bytes, base64url, sent only in the link; the
 * store keeps its SHA-256, so neither a database read nor a backup yields a
 * working link. An artefact table (./expiring-artefacts.ts).
 */
import type { Db } from '../database.js';
import type { TicketRow } from '../schema.js';
import type { TicketKind, TicketStore } from '../../domain/tickets/store.js';
import { ArtefactTable } from './expiring-artefacts.js';

export type { TicketRow } from '../../domain/tickets/rows.js';

export class KyselyTicketStore implements TicketStore {
  readonly #tickets: ArtefactTable<'tickets'>;

  /** `db` may be a transaction, so a consumption commits or rolls back with the change it allows. */
  constructor(db: Db) {
    this.#tickets = new ArtefactTable(db, 'tickets');
  }

  insert(row: Omit<TicketRow, 'used_at'>): Promise<void> {
    return this.#tickets.insert({ ...row, used_at: null });
  }

  findUsable(tenantId: string, idHash: string, kind: TicketKind, now: string): Promise<TicketRow | undefined> {
    return this.#tickets.findUsable({ tenant_id: tenantId, id_hash: idHash, kind }, now);
  }

  async consume(tenantId: string, idHash: string, kind: TicketKind, now: string): Promise<string | undefined> {
    return (await this.#tickets.spend({ tenant_id: tenantId, id_hash: idHash, kind }, now))?.user_id;
  }
}
