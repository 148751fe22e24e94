/**
 * WebAuthn credentials (security keys, device biometrics, passkeys) as
 * enrolments in `mfa_authenticators` (src/domain/mfa/webauthn.ts), of type
 * `webauthn-roaming`, `webauthn-platform` or `passkey`:
 *
 * - `credential_id`: the credential's id (base64url), unique in a tenant, so
 *   an assertion names exactly one enrolment of one user;
 * - `public_key`: the credential's COSE public key (base64url), the column
 *   push enrolments keep their device's JWK in;
 * - `sign_count`: the authenticator's signature counter at the last use (a
 *   counter that went backwards betrays a cloned authenticator);
 * - `transports`: what the browser said the authenticator speaks (JSON list),
 *   handed back in `allowCredentials`;
 * - `credential_device_type`, `credential_backed_up`: single-device or
 *   multi-device (synced passkey), and whether it is backed up.
 *
 * WebAuthn challenges are rows of `mfa_challenges`: the challenge's SHA-256
 * as `oob_hash`, bound to the user (or none, for a passkey login), the
 * client and the login transaction (`binding_hash`), single use.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mfa_authenticators').addColumn('credential_id', 'text').execute();
  await db.schema.alterTable('mfa_authenticators').addColumn('sign_count', 'integer').execute();
  await db.schema.alterTable('mfa_authenticators').addColumn('transports', 'text').execute();
  await db.schema.alterTable('mfa_authenticators').addColumn('credential_device_type', 'text').execute();
  await db.schema.alterTable('mfa_authenticators').addColumn('credential_backed_up', 'integer').execute();
  await db.schema.createIndex('mfa_authenticators_credential_uq').on('mfa_authenticators').columns(['tenant_id', 'credential_id']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mfa_authenticators_credential_uq').execute();
  for (const column of ['credential_backed_up', 'credential_device_type', 'transports', 'sign_count', 'credential_id']) {
    await db.schema.alterTable('mfa_authenticators').dropColumn(column).execute();
  }
}
