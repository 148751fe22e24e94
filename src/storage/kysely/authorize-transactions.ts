/**
 * /authorize requests waiting for a login (the hosted pages' transactions),
 * kept under the SHA-256 of their transaction id (src/domain/secrets.ts). An
 * artefact table (./expiring-artefacts.ts): every change is one conditional
 * UPDATE of a request still usable.
 */
import type { Db } from '../database.js';
import type { AuthorizationRequestRow } from '../schema.js';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';
import { ArtefactTable } from './expiring-artefacts.js';

export class KyselyAuthorizationRequestStore implements AuthorizationRequestStore {
  readonly #requests: ArtefactTable<'authorization_requests'>;

  constructor(db: Db) {
    this.#requests = new ArtefactTable(db, 'authorization_requests');
  }

  insert(row: Omit<AuthorizationRequestRow, 'used_at' | 'completed_steps' | 'session_hash'>): Promise<void> {
    return this.#requests.insert({ ...row, used_at: null, completed_steps: [], session_hash: null });
  }

  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined> {
    return this.#requests.findUsable({ tenant_id: tenantId, id_hash: idHash }, now);
  }

  async recordSteps(tenantId: string, idHash: string, now: string, completed: readonly string[], sessionHash: string | null): Promise<boolean> {
    return (await this.#requests.updateUsable({ tenant_id: tenantId, id_hash: idHash }, now, { completed_steps: [...completed], session_hash: sessionHash })) !== undefined;
  }

  async consume(tenantId: string, idHash: string, now: string): Promise<boolean> {
    return (await this.#requests.spend({ tenant_id: tenantId, id_hash: idHash }, now)) !== undefined;
  }

  async recordRequest(tenantId: string, idHash: string, now: string, params: AuthorizationRequestRow['params']): Promise<boolean> {
    return (await this.#requests.updateUsable({ tenant_id: tenantId, id_hash: idHash }, now, { params })) !== undefined;
  }
}
