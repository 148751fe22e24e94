/**
 * Actions modules (docs/actions.md, "Modules"): shared code that actions
 * `require('actions:<name>')`.
 *
 * - `action_modules`: the draft of each module (what PATCH changes: code,
 *   dependencies, sealed secrets), `build_key` the folder its dependencies
 *   are installed in, `latest_version_id` the last version published,
 *   `draft_pending` whether the draft awaits a publish. Names
 *   are unique per tenant (actions require a module by its name).
 * - `action_module_versions`: immutable copies of the draft made by each
 *   publish (POST …/versions), numbered per module.
 * - `actions.modules`, `action_versions.modules`: JSON lists of the module
 *   versions an action's draft and each of its versions use
 *   (`[{module_id, module_name, module_version_id, module_version_number}]`).
 *
 * Secret values are sealed one by one under the master key (JSON members
 * `value_enc`), bound to the tenant, the module and the secret's name.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('action_modules')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    /** JSON: [{name, version}]. */
    .addColumn('dependencies', 'text', (c) => c.notNull())
    /** JSON: [{name, value_enc, updated_at}]. */
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('build_key', 'text')
    .addColumn('api_version', 'text')
    .addColumn('latest_version_id', 'text')
    /** 1 while the draft (made by create, PATCH or rollback) is not published yet; a publish sets 0. */
    .addColumn('draft_pending', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_modules_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('action_modules_name_unique', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('action_module_versions')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('module_id', idType(db), (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('dependencies', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text', (c) => c.notNull())
    .addColumn('build_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('action_module_versions_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('action_module_versions_number_unique', ['tenant_id', 'module_id', 'number'])
    .addForeignKeyConstraint('action_module_versions_module_fk', ['tenant_id', 'module_id'], 'action_modules', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema.alterTable('actions').addColumn('modules', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('action_versions').addColumn('modules', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('action_versions').dropColumn('modules').execute();
  await db.schema.alterTable('actions').dropColumn('modules').execute();
  await db.schema.dropTable('action_module_versions').execute();
  await db.schema.dropTable('action_modules').execute();
}
