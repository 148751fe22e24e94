/**
 * Rate limit policies (/api/v2/rate-limit-policies): per tenant, one policy
 * per resource, consumer and consumer selector (the service's 409), enforced
 * on the Authentication API by src/domain/rate-limit-policies/enforcement.ts.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_policies')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** `rlp_` + 22 characters. */
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('consumer_selector', 'text', (c) => c.notNull())
    /** The document's RateLimitPolicyConfiguration as JSON: action, limit, redirect_uri. */
    .addColumn('configuration', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_policies_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('rate_limit_policies_selector_uq', ['tenant_id', 'resource', 'consumer', 'consumer_selector'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_policies').execute();
}
