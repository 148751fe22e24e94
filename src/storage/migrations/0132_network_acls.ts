/**
 * Network ACLs (the service's Tenant ACL, /api/v2/network-acls): at most a
 * few rules per tenant (src/management/network-acls/service.ts bounds them),
 * each with a priority unique in its tenant (the service's 409), evaluated
 * by src/domain/network-acls/rules.ts on every request of the rule's scope.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('network_acls')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** `acl_` + 22 characters. */
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('priority', 'integer', (c) => c.notNull())
    /** The document's `NetworkAclRule` as JSON: action, match, not_match, scope. */
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('network_acls_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('network_acls_priority_uq', ['tenant_id', 'priority'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('network_acls').execute();
}
