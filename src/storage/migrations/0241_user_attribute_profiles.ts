/**
 * User attribute profiles (`/user-attribute-profiles`): how an enterprise
 * connection's user attributes map from OIDC claims, SAML attributes and
 * SCIM paths, referenced by clients' express configuration. `name` is unique
 * per tenant (the service's 409).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_attribute_profiles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON: `{oidc_mapping?, saml_mapping?, scim_mapping?, strategy_overrides?}` or null. */
    .addColumn('user_id', 'text')
    /** JSON: attribute name → `{description, label, profile_required, auth0_mapping, …}`. */
    .addColumn('user_attributes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_attribute_profiles_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('user_attribute_profiles_name_unique', ['tenant_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_attribute_profiles').execute();
}
