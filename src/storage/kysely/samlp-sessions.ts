/** The SAML service providers each SSO session answered (migration 0030). */
import type { Db } from '../database.js';
import type { SamlpParticipantRow } from '../schema.js';
import type { SamlpSessionStore } from '../../domain/samlp-sessions/store.js';

export class KyselySamlpSessionStore implements SamlpSessionStore {
  constructor(private readonly db: Db) {}

  async record(row: SamlpParticipantRow): Promise<void> {
    await this.db
      .insertInto('samlp_session_participants')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'session_hash', 'client_id']).doUpdateSet({ name_id: row.name_id, name_id_format: row.name_id_format, session_index: row.session_index, created_at: row.created_at }),
      )
      .execute();
  }

  listForSession(tenantId: string, sessionHash: string): Promise<SamlpParticipantRow[]> {
    return this.db
      .selectFrom('samlp_session_participants')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('session_hash', '=', sessionHash)
      .orderBy('created_at')
      .orderBy('client_id')
      .execute();
  }
}
