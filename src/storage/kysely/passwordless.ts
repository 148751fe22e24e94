/** Passwordless login codes (migration 0021): one row per connection and recipient. An artefact table (./expiring-artefacts.ts). */
import type { Db } from '../database.js';
import type { PasswordlessCodeRow } from '../../domain/passwordless/rows.js';
import type { PasswordlessStore } from '../../domain/passwordless/store.js';
import { ArtefactTable } from './expiring-artefacts.js';

export class KyselyPasswordlessStore implements PasswordlessStore {
  readonly #codes: ArtefactTable<'passwordless_codes'>;

  constructor(private readonly db: Db) {
    this.#codes = new ArtefactTable(db, 'passwordless_codes');
  }

  async replace(row: Omit<PasswordlessCodeRow, 'used_at' | 'failures'>): Promise<void> {
    const fresh = { ...row, failures: 0, used_at: null };
    await this.db
      .insertInto('passwordless_codes')
      .values(fresh)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'connection_id', 'recipient']).doUpdateSet({
          client_id: row.client_id,
          code_hash: row.code_hash,
          failures: 0,
          created_at: row.created_at,
          expires_at: row.expires_at,
          used_at: null,
        }),
      )
      .execute();
  }

  find(tenantId: string, connectionId: string, recipient: string): Promise<PasswordlessCodeRow | undefined> {
    return this.db
      .selectFrom('passwordless_codes')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .where('recipient', '=', recipient)
      .executeTakeFirst();
  }

  async recordFailure(tenantId: string, connectionId: string, recipient: string, codeHash: string): Promise<number> {
    const row = await this.db
      .updateTable('passwordless_codes')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('tenant_id', '=', tenantId)
      .where('connection_id', '=', connectionId)
      .where('recipient', '=', recipient)
      .where('code_hash', '=', codeHash)
      .returning('failures')
      .executeTakeFirst();
    return row?.failures ?? 0;
  }

  async spend(tenantId: string, connectionId: string, recipient: string, codeHash: string, now: string, maxFailures: number): Promise<boolean> {
    const key = { tenant_id: tenantId, connection_id: connectionId, recipient, code_hash: codeHash };
    return (await this.#codes.spend(key, now, {}, { conditions: [['failures', '<', maxFailures]] })) !== undefined;
  }
}
