/**
 * Users' consent grants behind /api/v2/grants: listing with offset paging and
 * revoking, by id or every grant of a user. Grants are written by the consent
 * step of /authorize; revoking one means the user is asked again next time.
 * They play no part in the issuance caches, so revocations invalidate nothing.
 *
 * Both deletes answer 204 whether or not anything was deleted: the service's
 * document gives them no 404 (nor any 400), and revocation is idempotent, as
 * it is for tokens (RFC 7009 §2.2).
 */
import { consentGrantFromRow, type ConsentGrant } from '../../domain/consent-grants/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { type ConsentGrantFilter, type ConsentGrantStore } from '../../domain/consent-grants/store.js';

export type ConsentGrantList = ConsentGrant[] | { start: number; limit: number; total: number; grants: ConsentGrant[] };

/** What GrantService touches. */
export interface GrantServiceContext {
  readonly stores: { readonly consentGrants: ConsentGrantStore };
}

export class ConsentGrantService {
  readonly #grants: ConsentGrantStore;

  constructor(ctx: GrantServiceContext) {
    this.#grants = ctx.stores.consentGrants;
  }

  async list(tenant: Tenant, filter: ConsentGrantFilter, query: { page: number; perPage: number; includeTotals: boolean }): Promise<ConsentGrantList> {
    const { rows, total } = await this.#grants.list(tenant.id, filter, { page: query.page, perPage: query.perPage });
    const grants = rows.map(consentGrantFromRow);
    return query.includeTotals ? { start: query.page * query.perPage, limit: query.perPage, total, grants } : grants;
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    await this.#grants.delete(tenant.id, id);
  }

  async deleteByUser(tenant: Tenant, userId: string): Promise<void> {
    await this.#grants.deleteByUser(tenant.id, userId);
  }
}
