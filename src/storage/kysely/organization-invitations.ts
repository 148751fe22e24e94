import type { OrganizationInvitationStore } from '../../domain/organizations/invitations-store.js';
import type { OffsetWindow, Page } from '../../domain/paging.js';
import type { OrganizationInvitationRow } from '../../domain/organizations/rows.js';
import type { Db } from '../database.js';
import { parsedRow, toStored } from '../json-columns.js';
import { fetchPage, parsedPage } from '../paging.js';

export class KyselyOrganizationInvitationStore implements OrganizationInvitationStore {
  constructor(private readonly db: Db) {}

  async insert(row: OrganizationInvitationRow): Promise<void> {
    await this.db.insertInto('organization_invitations').values(toStored('organization_invitations', row)).execute();
  }

  get(tenantId: string, organizationId: string, id: string): Promise<OrganizationInvitationRow | undefined> {
    return parsedRow(
      'organization_invitations',
      this.db
        .selectFrom('organization_invitations')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
    );
  }

  list(tenantId: string, organizationId: string, page: OffsetWindow, descending: boolean): Promise<Page<OrganizationInvitationRow>> {
    const base = this.db.selectFrom('organization_invitations').where('tenant_id', '=', tenantId).where('organization_id', '=', organizationId);
    const direction = descending ? 'desc' : 'asc';
    return parsedPage(
      'organization_invitations',
      fetchPage(base, (q) => q.selectAll(), 'id', { kind: 'offset', ...page }, { order: (q) => q.orderBy('created_at', direction).orderBy('id', direction) }),
    );
  }

  async delete(tenantId: string, organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('organization_invitations')
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  findByTicket(tenantId: string, ticketHash: string): Promise<OrganizationInvitationRow | undefined> {
    return parsedRow(
      'organization_invitations',
      this.db.selectFrom('organization_invitations').selectAll().where('tenant_id', '=', tenantId).where('ticket_hash', '=', ticketHash).executeTakeFirst(),
    );
  }

  async consume(tenantId: string, id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('organization_invitations')
      .set({ used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
