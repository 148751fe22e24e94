/**
 * Organizations beyond their own row (issue: organizations in login):
 *
 * - `organization_members`: who belongs to an organization; goes with the
 *   organization or the user. Indexed both ways (an organization's members in
 *   user_id order, a user's organizations).
 * - `organization_member_roles`: the roles a member holds in that
 *   organization; goes with the membership (so with the organization or the
 *   user) or the role.
 * - `organization_connections`: the connections enabled for an
 *   organization, with `assign_membership_on_login`, `show_as_button` and
 *   `is_signup_enabled`; goes with either side.
 * - `organization_invitations`: an invitation's ticket is kept under its
 *   SHA-256 (how /authorize finds it) and sealed under the master key (the
 *   Management API returns its `invitation_url` again); single use
 *   (`used_at`), expiring.
 * - `organization_id` on authorization codes and refresh tokens: the
 *   organization a login was for, carried into the tokens and kept by
 *   refreshes.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organization_members')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_members_pk', ['tenant_id', 'organization_id', 'user_id'])
    .addForeignKeyConstraint('organization_members_organization_fk', ['tenant_id', 'organization_id'], 'organizations', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('organization_members_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('organization_members_user_idx').on('organization_members').columns(['tenant_id', 'user_id', 'organization_id']).execute();

  await db.schema
    .createTable('organization_member_roles')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('role_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_member_roles_pk', ['tenant_id', 'organization_id', 'user_id', 'role_id'])
    .addForeignKeyConstraint(
      'organization_member_roles_member_fk',
      ['tenant_id', 'organization_id', 'user_id'],
      'organization_members',
      ['tenant_id', 'organization_id', 'user_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('organization_member_roles_role_fk', ['tenant_id', 'role_id'], 'roles', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('organization_member_roles_role_idx').on('organization_member_roles').columns(['tenant_id', 'role_id']).execute();

  await db.schema
    .createTable('organization_connections')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('assign_membership_on_login', 'integer', (c) => c.notNull())
    .addColumn('show_as_button', 'integer', (c) => c.notNull())
    .addColumn('is_signup_enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_connections_pk', ['tenant_id', 'organization_id', 'connection_id'])
    .addForeignKeyConstraint('organization_connections_organization_fk', ['tenant_id', 'organization_id'], 'organizations', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('organization_connections_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('organization_connections_connection_idx').on('organization_connections').columns(['tenant_id', 'connection_id']).execute();

  await db.schema
    .createTable('organization_invitations')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('ticket_hash', 'text', (c) => c.notNull())
    .addColumn('ticket_enc', 'text', (c) => c.notNull())
    .addColumn('inviter_name', 'text', (c) => c.notNull())
    .addColumn('invitee_email', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text')
    /** JSON objects. */
    .addColumn('app_metadata', 'text', (c) => c.notNull())
    .addColumn('user_metadata', 'text', (c) => c.notNull())
    /** JSON array of role ids. */
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('organization_invitations_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('organization_invitations_organization_fk', ['tenant_id', 'organization_id'], 'organizations', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('organization_invitations_ticket_uq').on('organization_invitations').columns(['tenant_id', 'ticket_hash']).unique().execute();
  await db.schema
    .createIndex('organization_invitations_organization_idx')
    .on('organization_invitations')
    .columns(['tenant_id', 'organization_id', 'created_at', 'id'])
    .execute();

  await db.schema.alterTable('authorization_codes').addColumn('organization_id', 'text').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('organization_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('organization_id').execute();
  await db.schema.alterTable('authorization_codes').dropColumn('organization_id').execute();
  for (const table of ['organization_invitations', 'organization_connections', 'organization_member_roles', 'organization_members']) {
    await db.schema.dropTable(table).execute();
  }
}
