/**
 * Passwordless login by text message (src/domain/passwordless/): the users
 * of an `sms` connection are found by their phone number, one user per
 * number and connection. A partial unique index (users whose id is
 * `sms|…`), since database connections may hold users sharing a number.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create unique index users_sms_phone_uq on users (tenant_id, connection_id, phone_number) where user_id like 'sms|%'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index users_sms_phone_uq`.execute(db);
}
