/**
 * Password login through a database connection, custom or not: the one
 * function the password grants, the hosted login page and cross-origin
 * authentication call.
 *
 * A custom database (`options.enabledDatabaseCustomization`) reaches the
 * tenant's own user store through its `login` script, run in the sandbox
 * (../connections/scripts.ts) as `login(identifier, password, callback)`:
 *
 * - without `import_mode` the script is called on every login; the user it
 *   answers is kept in Gatehouse's store (its profile refreshed each time,
 *   no password) as `auth0|{user_id}`, so tokens, sessions and the
 *   Management API know it, as the service keeps a cached profile;
 * - with `import_mode` (lazy migration) a user already in Gatehouse's store
 *   logs in there and the script is never called for them; an unknown one
 *   is looked up through the script and, on its success, created with the
 *   password just verified, hashed (argon2id), so the next login is local.
 *
 * `get_user(email, callback)` is asked, under `import_mode`, about an
 * address Gatehouse's store does not know: a signup of an address the
 * legacy store holds is refused as a taken one, and a password reset of
 * such an address moves the user first (without a password: the reset
 * sets it), as the service's lazy migration does (`importedByEmail`).
 *
 * Without `import_mode` the users are the legacy store's: a signup goes
 * there through `create(user, callback)` (a `ValidationError('user_exists')`
 * is a taken address), and the user is then had through `login` and kept
 * like any script login; no password is stored here.
 *
 * A password reset, or a password or email change through the Management
 * API, changes it in the legacy store first through `change_password` or
 * `change_email` (`scriptPasswordChange`, `scriptEmailChange`), and a
 * followed verification link marks the address there through `verify`
 * (`scriptVerify`); the new
 * password's hash is then also written here as for any user, unused while
 * the connection does not import (and its password should it switch to
 * `import_mode` later).
 *
 * The script's answer, as the service's runtime defines it: a profile with
 * `user_id` (or `id`) logs in; `callback(null)` or a
 * `WrongUsernameOrPasswordError` is a wrong password; an
 * `UnauthorizedError` refuses with its message; any other error, a
 * timeout, or a profile without `user_id` fails the login
 * (`CustomDatabaseError`), its detail kept for the tenant log only.
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { hashPassword } from '../../platform/passwords/hashing.js';
import { isoAt } from '../../platform/clock.js';
import { openConfiguration } from '../connections/configuration.js';
import type { ConnectionRow } from '../connections/model.js';
import type { ConnectionScripts } from '../connections/scripts.js';
import { auth0Strategy, customScript, usesCustomScripts } from '../connections/strategies/auth0.js';
import type { UserRow } from './model.js';
import type { UserStore } from './store.js';
import { upsertFederatedUser, type FederatedProfile } from './federated-user.js';
import { verifyUserPassword } from './login.js';

export interface CustomDatabaseDeps {
  readonly stores: { readonly users: UserStore };
  readonly box: SecretBox;
  readonly scripts: ConnectionScripts;
  readonly now: () => number;
}

/** Why a script login failed other than a wrong password. */
export class CustomDatabaseError extends Error {
  constructor(
    /**
     * `unauthorized`: the script's `UnauthorizedError` (its message is the user's); `user_exists`,
     * `invalid`: a `create` script's `ValidationError` (taken, or another code: its message is the
     * user's); `no_script`: the operation needs a script the connection lacks; `script_failed`: anything else.
     */
    readonly code: 'unauthorized' | 'user_exists' | 'invalid' | 'no_script' | 'script_failed',
    message: string,
    /** What the script said, for the tenant log (never the client). */
    readonly detail: string,
  ) {
    super(message);
  }
}

const FAILED = 'The login could not be completed by the connection\'s login script.';
const CHANGE_PASSWORD_FAILED = "The password could not be changed in the connection's user store.";
const CREATE_FAILED = "The connection's create script failed.";
const GET_USER_FAILED = "The connection's get_user script failed.";
const MAX_USER_ID = 255;

/** The user when the password is right; undefined for a wrong one (callers answer alike). Throws `CustomDatabaseError`. */
export async function passwordLogin(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, identifier: string, password: string, signal?: AbortSignal): Promise<UserRow | undefined> {
  const script = customScript(connection.options, 'login');
  if (!usesCustomScripts(connection.options) || script === undefined) return verifyUserPassword(deps.stores.users, tenantId, connection.id, identifier, password, signal);
  const importing = connection.options.import_mode === true;
  if (importing && (await deps.stores.users.findByLoginIdentifier(tenantId, connection.id, identifier.toLowerCase()))?.password_hash) {
    // Already moved: the local store answers, the legacy store is not asked again. (One moved
    // without a password, by a reset request not yet completed, still logs in at the legacy store.)
    return verifyUserPassword(deps.stores.users, tenantId, connection.id, identifier, password, signal);
  }
  signal?.throwIfAborted();
  const outcome = await deps.scripts.run(tenantId, script, [identifier, password], openConfiguration(deps.box, tenantId, connection.id, connection.options));
  if ('error' in outcome) {
    const { name, message } = outcome.error;
    if (name === 'WrongUsernameOrPasswordError') return undefined;
    if (name === 'UnauthorizedError') throw new CustomDatabaseError('unauthorized', message, `${name}: ${message}`);
    throw new CustomDatabaseError('script_failed', FAILED, `${name}: ${message}`);
  }
  if (outcome.value === null || typeof outcome.value !== 'object' || Array.isArray(outcome.value)) return undefined;
  return keepScriptUser(deps, connection, outcome.value as Record<string, unknown>, identifier, 'login', importing ? await hashPassword(password) : undefined);
}

/** The user a script answered, made or refreshed in Gatehouse's store (with `passwordHash`: imported). */
async function keepScriptUser(deps: CustomDatabaseDeps, connection: ConnectionRow, profile: Record<string, unknown>, identifier: string, script: 'login' | 'get_user', passwordHash?: string): Promise<UserRow | undefined> {
  const id = scriptUserId(profile);
  if (id === undefined) throw new CustomDatabaseError('script_failed', script === 'login' ? FAILED : GET_USER_FAILED, `the profile the ${script} script returned has no user_id`);
  const now = isoAt(deps.now());
  const user = await upsertFederatedUser(deps.stores.users, auth0Strategy, connection, id, profileOf(profile, identifier), now);
  if (!user) return undefined;
  const changes = { ...rootMembers(profile), ...(passwordHash !== undefined && { password_hash: passwordHash }) };
  if (Object.keys(changes).length > 0) await deps.stores.users.update(connection.tenant_id, user.user_id, { ...changes, updated_at: now });
  return { ...user, ...changes };
}

/**
 * Under `import_mode`, the user the `get_user` script finds for `email`
 * when Gatehouse's store has none, moved into it without a password;
 * undefined when the connection does not import or the script finds nobody.
 * Throws `CustomDatabaseError` when the script fails.
 */
export async function importedByEmail(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, email: string): Promise<UserRow | undefined> {
  if (await deps.stores.users.findByEmail(tenantId, connection.id, email.toLowerCase())) return undefined;
  const profile = await legacyUser(deps, tenantId, connection, email);
  return profile === undefined ? undefined : keepScriptUser(deps, connection, profile, email, 'get_user');
}

/**
 * A password reset on a custom database without `import_mode`: the new
 * password goes to the legacy store through `change_password(email,
 * newPassword, callback)`, which must answer `true`. False when the
 * connection's users are Gatehouse's (not custom, or importing); throws
 * `CustomDatabaseError` when the script is missing, fails or answers false.
 */
export async function scriptPasswordChange(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, email: string, newPassword: string): Promise<boolean> {
  return legacyChange(deps, tenantId, connection, 'change_password', [email, newPassword], CHANGE_PASSWORD_FAILED);
}

/**
 * An email change (Management API) on a custom database without
 * `import_mode`: `change_email(email, newEmail, verified, callback)` in the
 * legacy store, which must answer `true`; as `scriptPasswordChange` otherwise.
 */
export async function scriptEmailChange(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, email: string, newEmail: string, verified: boolean): Promise<boolean> {
  return legacyChange(deps, tenantId, connection, 'change_email', [email, newEmail, verified], "The email could not be changed in the connection's user store.");
}

/**
 * The link of a verification email, followed, on a custom database without
 * `import_mode`: `verify(email, callback)` marks the address verified in the
 * legacy store and must answer `true` (the script profile of later logins
 * then says so too). False when the connection's users are Gatehouse's, or
 * when the connection has no `verify` script: the address is then verified
 * in Gatehouse's store only (the service requires the script for legacy
 * stores; Gatehouse keeps a connection without one working as before).
 * Throws `CustomDatabaseError` when the script fails or answers other than `true`.
 */
export async function scriptVerify(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, email: string): Promise<boolean> {
  if (customScript(connection.options, 'verify') === undefined) return false;
  return legacyChange(deps, tenantId, connection, 'verify', [email], "The email could not be verified in the connection's user store.");
}

/** A change the legacy store makes through `script`, which must answer `true`; false when the users are Gatehouse's. */
async function legacyChange(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, name: 'change_password' | 'change_email' | 'verify', args: unknown[], failed: string): Promise<boolean> {
  if (!usesCustomScripts(connection.options) || connection.options.import_mode === true) return false;
  const script = customScript(connection.options, name);
  if (script === undefined) throw new CustomDatabaseError('no_script', failed, `the connection has no ${name} script`);
  const outcome = await deps.scripts.run(tenantId, script, args, openConfiguration(deps.box, tenantId, connection.id, connection.options));
  if ('error' in outcome) throw new CustomDatabaseError('script_failed', failed, `${outcome.error.name}: ${outcome.error.message}`);
  if (outcome.value !== true) throw new CustomDatabaseError('script_failed', failed, `the ${name} script did not answer true`);
  return true;
}

/**
 * A user deleted through the Management API on a custom database without
 * `import_mode`: deleted in the legacy store first through `delete(id,
 * callback)` (`id` the user id without `auth0|`). Nothing to do without the
 * script (the user is only forgotten here) or when the connection's users
 * are Gatehouse's; throws `CustomDatabaseError` when the script fails.
 */
export async function scriptDelete(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, userId: string): Promise<void> {
  if (!usesCustomScripts(connection.options) || connection.options.import_mode === true) return;
  const script = customScript(connection.options, 'delete');
  if (script === undefined) return;
  const outcome = await deps.scripts.run(tenantId, script, [userId.replace(/^auth0\|/, '')], openConfiguration(deps.box, tenantId, connection.id, connection.options));
  if ('error' in outcome) throw new CustomDatabaseError('script_failed', "The connection's delete script failed; the user was not deleted.", `${outcome.error.name}: ${outcome.error.message}`);
}

/** What a signup sends to a `create` script (the service's `user` argument). */
export interface ScriptSignup {
  email: string;
  password: string;
  username?: string;
  user_metadata?: Record<string, unknown>;
}

/**
 * A signup on a custom database without `import_mode`: `create` in the
 * legacy store, then `login` for the user, kept here without a password.
 * Undefined when the connection's users are Gatehouse's (not custom, or
 * importing). Throws `CustomDatabaseError`.
 */
export async function scriptSignup(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, user: ScriptSignup): Promise<UserRow | undefined> {
  if (!usesCustomScripts(connection.options) || connection.options.import_mode === true) return undefined;
  const create = customScript(connection.options, 'create');
  if (create === undefined) throw new CustomDatabaseError('no_script', 'Public signup is disabled', 'the connection has no create script');
  const configuration = openConfiguration(deps.box, tenantId, connection.id, connection.options);
  const created = await deps.scripts.run(tenantId, create, [{ ...user, tenant: tenantId, connection: connection.name }], configuration);
  if ('error' in created) {
    const { name, message, code } = created.error;
    if (name === 'ValidationError' && code === 'user_exists') throw new CustomDatabaseError('user_exists', message, `${name}: ${message}`);
    if (name === 'ValidationError') throw new CustomDatabaseError('invalid', message, `${name}: ${message}`);
    throw new CustomDatabaseError('script_failed', CREATE_FAILED, `${name}: ${message}`);
  }
  const loggedIn = await passwordLogin(deps, tenantId, connection, user.email, user.password);
  if (!loggedIn) throw new CustomDatabaseError('script_failed', CREATE_FAILED, 'the login script did not find the user the create script made');
  return loggedIn;
}

/**
 * What the `get_user` script answers for `email` under `import_mode`: the
 * legacy store's profile, or undefined (no such user, or the connection
 * does not import). Throws `CustomDatabaseError` when the script fails.
 */
export async function legacyUser(deps: CustomDatabaseDeps, tenantId: string, connection: ConnectionRow, email: string): Promise<Record<string, unknown> | undefined> {
  const script = customScript(connection.options, 'get_user');
  if (script === undefined || connection.options.import_mode !== true) return undefined;
  const outcome = await deps.scripts.run(tenantId, script, [email], openConfiguration(deps.box, tenantId, connection.id, connection.options));
  if ('error' in outcome) throw new CustomDatabaseError('script_failed', GET_USER_FAILED, `${outcome.error.name}: ${outcome.error.message}`);
  if (outcome.value === null || typeof outcome.value !== 'object' || Array.isArray(outcome.value)) return undefined;
  return outcome.value as Record<string, unknown>;
}

/** The script's `user_id` (or `id`) without the strategy prefix it may carry: `auth0|{id}` is the user. */
function scriptUserId(profile: Record<string, unknown>): string | undefined {
  const raw = profile.user_id ?? profile.id;
  const id = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : typeof raw === 'string' ? raw.replace(/^auth0\|/, '') : undefined;
  return id && id.length <= MAX_USER_ID ? id : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' && value.length <= 512 ? value : undefined);

function profileOf(profile: Record<string, unknown>, identifier: string): FederatedProfile {
  const email = text(profile.email) ?? (identifier.includes('@') ? identifier : undefined);
  return {
    email,
    ...(email !== undefined && { email_verified: profile.email_verified === true || profile.email_verified === 'true' ? 'true' : 'false' }),
    name: text(profile.name),
    given_name: text(profile.given_name),
    family_name: text(profile.family_name),
    nickname: text(profile.nickname),
    picture: text(profile.picture),
  };
}

/** The members of the profile kept beside the federated ones: username and metadata (objects, bounded). */
function rootMembers(profile: Record<string, unknown>): Partial<Pick<UserRow, 'username' | 'username_lower' | 'app_metadata' | 'user_metadata'>> {
  const members: Partial<Pick<UserRow, 'username' | 'username_lower' | 'app_metadata' | 'user_metadata'>> = {};
  const username = text(profile.username);
  if (username !== undefined && username.length <= 128) Object.assign(members, { username, username_lower: username.toLowerCase() });
  for (const key of ['app_metadata', 'user_metadata'] as const) {
    const value = profile[key];
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && JSON.stringify(value).length <= 16_384) members[key] = value as Record<string, unknown>;
  }
  return members;
}
