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
import type { JsonObject } from '../../domain/json.js';

export class KyselyAuthorizationRequestStore implements AuthorizationRequestStore {
  readonly #requests: ArtefactTable<'authorization_requests'>;

  constructor(db: Db) {
    this.#requests = new ArtefactTable(db, 'authorization_requests');
  }

  insert(row: Omit<AuthorizationRequestRow, 'used_at' | 'completed_steps' | 'session_hash' | 'continue_hash' | 'action_suspension'>): Promise<void> {
    return this.#requests.insert({ ...row, used_at: null, completed_steps: [], session_hash: null, continue_hash: null, action_suspension: null });
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

  async suspend(tenantId: string, idHash: string, now: string, continueHash: string, suspension: JsonObject): Promise<boolean> {
    return (await this.#requests.updateUsable({ tenant_id: tenantId, id_hash: idHash }, now, { continue_hash: continueHash, action_suspension: suspension })) !== undefined;
  }

  resume(tenantId: string, idHash: string, now: string, continueHash: string): Promise<AuthorizationRequestRow | undefined> {
    return this.#requests.updateUsable({ tenant_id: tenantId, id_hash: idHash }, now, { continue_hash: null }, { conditions: [['continue_hash', '=', continueHash]] });
  }
}
