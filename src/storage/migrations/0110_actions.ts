/**
 * Actions (the tenant's own code run at the service's triggers), their
 * versions, the triggers' bindings, the executions the runtime records, and
 * custom token exchange profiles (docs/actions.md).
 *
 * - `actions`: the draft of each action (what PATCH changes) and the state of
 *   its build (`status`, `build_key`: the folder its dependencies are
 *   installed in, `build_errors`); `deployed_version_id` names the version the
 *   triggers run. Names are unique per tenant: bindings and auth0-deploy-cli
 *   name actions by name.
 * - `action_versions`: immutable copies of a draft made by each deploy (and
 *   each rollback), numbered per action.
 * - `action_bindings`: per trigger, the ordered list of actions it runs
 *   (`position` from 0); replaced as a whole by PATCH, with new ids each time.
 * - `action_executions`: what one run of a trigger did, kept ten days.
 * - `token_exchange_profiles`: a `subject_token_type` bound to a
 *   custom-token-exchange action, unique per tenant.
 *
 * Secret values are sealed one by one under the master key (JSON members
 * `value_enc`), bound to the tenant, the action and the secret's name.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('actions')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON: [{id, version}]. */
    .addColumn('supported_triggers', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('runtime', 'text', (c) => c.notNull())
    /** JSON: [{name, version, registry_url?}]. */
    .addColumn('dependencies', 'text', (c) => c.notNull())
    /** JSON: [{name, value_enc, updated_at}]. */
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('build_key', 'text')
    /** JSON: [{id, msg, url}] of a failed build. */
    .addColumn('build_errors', 'text')
    .addColumn('built_at', 'text')
    .addColumn('deployed_version_id', 'text')
    .addColumn('all_changes_deployed', 'integer', (c) => c.notNull().defaultTo(0))
    /** 1: created with `deploy: true` while its build was pending; deployed once built. */
    .addColumn('deploy_when_built', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('actions_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('actions_name_unique', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('action_versions')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('action_id', idType(db), (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('supported_triggers', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('runtime', 'text', (c) => c.notNull())
    .addColumn('dependencies', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('build_key', 'text')
    .addColumn('built_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_versions_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('action_versions_number_unique', ['tenant_id', 'action_id', 'number'])
    .addForeignKeyConstraint('action_versions_action_fk', ['tenant_id', 'action_id'], 'actions', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('action_bindings')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('trigger_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('action_id', idType(db), (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_bindings_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('action_bindings_position_unique', ['tenant_id', 'trigger_id', 'position'])
    .addForeignKeyConstraint('action_bindings_action_fk', ['tenant_id', 'action_id'], 'actions', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('action_bindings_action_idx').on('action_bindings').columns(['tenant_id', 'action_id']).execute();

  await db.schema
    .createTable('action_executions')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('trigger_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON: [{action_name, error?, started_at, ended_at, logs?}]. */
    .addColumn('results', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_executions_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('action_executions_expires_idx').on('action_executions').column('expires_at').execute();

  await db.schema
    .createTable('token_exchange_profiles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('subject_token_type', 'text', (c) => c.notNull())
    .addColumn('action_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('token_exchange_profiles_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('token_exchange_profiles_type_unique', ['tenant_id', 'subject_token_type'])
    .execute();
}
