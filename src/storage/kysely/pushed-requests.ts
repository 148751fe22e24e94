/** Pushed authorization requests (migration 0015): inserted once, used once. An artefact table (./expiring-artefacts.ts). */
import type { Db } from '../database.js';
import type { PushedRequestStore } from '../../domain/pushed-requests/store.js';
import type { PushedAuthorizationRequestRow } from '../../domain/pushed-requests/rows.js';
import { ArtefactTable } from './expiring-artefacts.js';

export class KyselyPushedRequestStore implements PushedRequestStore {
  readonly #requests: ArtefactTable<'pushed_authorization_requests'>;

  constructor(db: Db) {
    this.#requests = new ArtefactTable(db, 'pushed_authorization_requests');
  }

  insert(row: Omit<PushedAuthorizationRequestRow, 'used_at'>): Promise<void> {
    return this.#requests.insert({ ...row, used_at: null });
  }

  async consume(tenantId: string, idHash: string, clientId: string, now: string): Promise<Record<string, string> | undefined> {
    return (await this.#requests.spend({ tenant_id: tenantId, id_hash: idHash, client_id: clientId }, now))?.params;
  }
}
