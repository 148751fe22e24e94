/**
 * A client's `external_client_id` (the URL of its Client ID Metadata
 * Document, POST /api/v2/clients/cimd/register) names at most one client of
 * the tenant: registration upserts by it, and two registrations at once must
 * not create two clients. The unique index replaces migration 0002's plain
 * one on the same columns; NULLs (every other client) are distinct on both
 * databases. Nothing but CIMD registration writes the column.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clients_external_id_idx').execute();
  await db.schema.createIndex('clients_external_client_id_uq').on('clients').columns(['tenant_id', 'external_client_id']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('clients_external_client_id_uq').execute();
  await db.schema.createIndex('clients_external_id_idx').on('clients').columns(['tenant_id', 'external_client_id']).execute();
}
