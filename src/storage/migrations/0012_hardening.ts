/**
 * Hardening of the login surface and the rest of the user update body:
 *
 * - `users.phone_verified`: the service's `phone_verified`, settable through
 *   PATCH /api/v2/users/{id} (0 or 1, default 0);
 * - `authorization_requests.browser_hash`: the SHA-256 of the
 *   `__Host-gh_browser` cookie of the browser that started the /authorize
 *   request, so that only that browser can complete it (null for requests
 *   stored before this migration, which no browser can complete);
 * - the tenant's Management API skips consent for first-party clients (now
 *   that the flag is honoured; end users of first-party applications get its
 *   `*:current_user*` scopes without a consent page, as on the service).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('phone_verified', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('authorization_requests').addColumn('browser_hash', 'text').execute();
  await sql`update resource_servers set skip_consent_for_verifiable_first_party_clients = 1 where is_system = 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_requests').dropColumn('browser_hash').execute();
  await db.schema.alterTable('users').dropColumn('phone_verified').execute();
}
