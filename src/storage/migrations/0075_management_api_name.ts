/**
 * The tenant's own Management API is named as the service names it, `Auth0
 * Management API`: tools recognise the system API by that name
 * (auth0-deploy-cli leaves it out of exports and never patches it). Tenants
 * created before were seeded with `Management API`; only their system API is
 * renamed, and only if nobody renamed it since.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update resource_servers set name = 'Auth0 Management API' where is_system = 1 and name = 'Management API'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update resource_servers set name = 'Management API' where is_system = 1 and name = 'Auth0 Management API'`.execute(db);
}
