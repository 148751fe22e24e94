/**
 * Authorization codes, kept under their SHA-256 (src/domain/secrets.ts). An
 * artefact table (./expiring-artefacts.ts).
 */
import type { Db } from '../database.js';
import type { AuthorizationCodeRow } from '../schema.js';
import type { AuthorizationCodeStore } from '../../domain/authorization-codes/store.js';
import { ArtefactTable } from './expiring-artefacts.js';

export class KyselyAuthorizationCodeStore implements AuthorizationCodeStore {
  readonly #codes: ArtefactTable<'authorization_codes'>;

  constructor(db: Db) {
    this.#codes = new ArtefactTable(db, 'authorization_codes');
  }

  insert(
    row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id' | 'amr' | 'organization_id'> & Partial<Pick<AuthorizationCodeRow, 'amr'>> & { organization_id?: string | null },
  ): Promise<void> {
    return this.#codes.insert({ amr: null, ...row, organization_id: row.organization_id ?? null, used_at: null, refresh_family_id: null });
  }

  find(tenantId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined> {
    return this.#codes.find({ tenant_id: tenantId, code_hash: codeHash });
  }

  async consume(tenantId: string, codeHash: string, now: string, refreshFamilyId: string): Promise<boolean> {
    return (await this.#codes.spend({ tenant_id: tenantId, code_hash: codeHash }, now, { refresh_family_id: refreshFamilyId })) !== undefined;
  }
}
