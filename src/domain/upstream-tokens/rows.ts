/**
 * A user's token set at an upstream identity provider (migration 0100): the
 * provider's access and refresh tokens of the user's last login through a
 * connection, sealed with the master key (src/platform/crypto/secret-box.ts),
 * for the Management API's `identities[]` (read:user_idp_tokens) and Token
 * Vault (./vault.ts). Timestamps ISO-8601 UTC.
 */
export interface UpstreamTokenSetRow {
  tenant_id: string;
  /** `fcts_` + random: the tokenset id of GET /users/{id}/federated-connections-tokensets. */
  id: string;
  user_id: string;
  connection_id: string;
  /** The connection's name, as the tokenset list shows it. */
  connection: string;
  /** Sealed; null when the provider gave none. */
  access_token: string | null;
  refresh_token: string | null;
  scope: string | null;
  /** When the access token expires, if the provider said. */
  access_token_expires_at: string | null;
  issued_at: string;
  last_used_at: string | null;
}
