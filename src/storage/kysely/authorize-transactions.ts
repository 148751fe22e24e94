/**
 * /authorize requests waiting for a login (the hosted pages' transactions),
 * kept under the SHA-256 of their transaction id (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { AuthorizationRequestRow } from '../schema.js';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';
import { parsedRow, toStored } from '../json-columns.js';

type Changes = Partial<Pick<AuthorizationRequestRow, 'used_at' | 'completed_steps' | 'session_hash' | 'params'>>;

export class KyselyAuthorizationRequestStore implements AuthorizationRequestStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<AuthorizationRequestRow, 'used_at' | 'completed_steps' | 'session_hash'>): Promise<void> {
    await this.db.insertInto('authorization_requests').values(toStored('authorization_requests', { ...row, used_at: null, completed_steps: [], session_hash: null })).execute();
  }

  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined> {
    return parsedRow(
      'authorization_requests',
      this.db
        .selectFrom('authorization_requests')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('id_hash', '=', idHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst(),
    );
  }

  recordSteps(tenantId: string, idHash: string, now: string, completed: readonly string[], sessionHash: string | null): Promise<boolean> {
    return this.updateUsable(tenantId, idHash, now, { completed_steps: [...completed], session_hash: sessionHash });
  }

  consume(tenantId: string, idHash: string, now: string): Promise<boolean> {
    return this.updateUsable(tenantId, idHash, now, { used_at: now });
  }

  recordRequest(tenantId: string, idHash: string, now: string, params: AuthorizationRequestRow['params']): Promise<boolean> {
    return this.updateUsable(tenantId, idHash, now, { params });
  }

  /** One conditional UPDATE of a request still usable at `now`; true when it was. */
  private async updateUsable(tenantId: string, idHash: string, now: string, changes: Changes): Promise<boolean> {
    const result = await this.db
      .updateTable('authorization_requests')
      .set(toStored('authorization_requests', changes))
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
