/**
 * The secrets in a connection's `options` sealed at rest: an upstream's
 * `client_secret` (social, `oauth2`, `oidc`, `okta`, `waad`, `google-apps`),
 * Apple's `.p8` key (`app_secret`), and a `google-apps` connection's admin
 * tokens for directory provisioning (`admin_refresh_token`,
 * `admin_access_token`). Stored, they are moved into one
 * reserved member, `gatehouse:sealed`, each value sealed (AES-256-GCM under
 * the tenant's encryption key, else the environment root key) and bound to
 * its tenant, connection and name; read, they are opened back into their
 * members and the reserved member is gone. The composition root does both
 * around the connection store (src/app/sealed-connections.ts), so the
 * Management API, the strategies and deploy-cli see the options exactly as
 * before, and a database dump or backup holds no upstream secret in clear.
 *
 * A `gatehouse:sealed` member sent by a client is never trusted: the sealed
 * set is rebuilt from the plaintext members at every write. A connection
 * written before this change keeps its plaintext member until its next
 * update, and reads the same either way.
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** The members of `options` that carry an upstream secret. */
export const SEALED_OPTION_MEMBERS = ['client_secret', 'app_secret', 'admin_refresh_token', 'admin_access_token'] as const;
/** Where the sealed values live in the stored options. */
export const SEALED_OPTIONS_MEMBER = 'gatehouse:sealed';

export function connectionSecretContext(tenantId: string, connectionId: string, member: string): string {
  return `connection_secret:${tenantId}:${connectionId}:${member}`;
}

/** `options` as stored: each secret member sealed into the reserved member (none when it has no secret). */
export function sealOptionSecrets(box: SecretBox, tenantId: string, connectionId: string, options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...options };
  delete stored[SEALED_OPTIONS_MEMBER];
  const sealed: Record<string, string> = {};
  for (const member of SEALED_OPTION_MEMBERS) {
    const value = stored[member];
    if (typeof value !== 'string') continue;
    sealed[member] = box.seal(value, connectionSecretContext(tenantId, connectionId, member), tenantId);
    delete stored[member];
  }
  return Object.keys(sealed).length > 0 ? { ...stored, [SEALED_OPTIONS_MEMBER]: sealed } : stored;
}

/**
 * `options` as read: the sealed members opened back into place. A value
 * that does not open (bound to another connection: a copied row) is left
 * out rather than answered.
 */
export function openOptionSecrets(box: SecretBox, tenantId: string, connectionId: string, options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const sealed = options[SEALED_OPTIONS_MEMBER];
  if (sealed === undefined) return options as Record<string, unknown>;
  const opened: Record<string, unknown> = { ...options };
  delete opened[SEALED_OPTIONS_MEMBER];
  if (typeof sealed !== 'object' || sealed === null) return opened;
  for (const member of SEALED_OPTION_MEMBERS) {
    const value = (sealed as Record<string, unknown>)[member];
    if (typeof value !== 'string') continue;
    try {
      opened[member] = box.openString(value, connectionSecretContext(tenantId, connectionId, member));
    } catch {
      // Not this connection's: never answered, never sent upstream.
    }
  }
  return opened;
}
