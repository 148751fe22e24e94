/**
 * Drives the official `auth0` SDK (v7) through a signing key rotation and a
 * revocation, one phase per run, and prints one JSON document of what each
 * call gave; test/e2e/signing-key-rotation.test.ts runs it as its own
 * process with NODE_EXTRA_CA_CERTS, so TLS verification is real.
 *
 * - `rotate`: a ManagementClient (client credentials) makes a call, so that
 *   it holds a token of the current key; it rotates through the SDK, lists
 *   the keys, and makes calls again with the same client and token; a
 *   ManagementClient given `token` (a token from before, obtained with
 *   openid-client) is used too. Tenant settings go through the SDK as well.
 * - `revoke`: a fresh ManagementClient revokes `kid`; a ManagementClient
 *   given `token` (signed by that key) is refused; a fresh one still works.
 *
 * Usage: node --import tsx auth0-sdk-signing-keys.ts '{"domain":…,"clientId":…,"clientSecret":…,"phase":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
  phase: 'rotate' | 'revoke';
  /** A Management API token obtained before the rotation. */
  token: string;
  /** The key to revoke. */
  kid?: string;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; statusCode: number | undefined; body: unknown };

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const out: Record<string, Outcome> = {};

async function record(name: string, call: () => Promise<unknown>): Promise<void> {
  try {
    out[name] = { ok: true, value: await call() };
  } catch (error) {
    const e = error as { statusCode?: number; body?: unknown; message?: string };
    out[name] = { ok: false, statusCode: e.statusCode, body: e.body ?? e.message };
  }
}

const options = { domain: input.domain, maxRetries: 0, timeoutInSeconds: 20 };
const withCredentials = () => new ManagementClient({ ...options, clientId: input.clientId, clientSecret: input.clientSecret });
const withToken = new ManagementClient({ ...options, token: input.token });

if (input.phase === 'rotate') {
  const management = withCredentials();
  await record('keysBefore', () => management.keys.signing.list());
  await record('rotate', () => management.keys.signing.rotate());
  await record('keysAfter', () => management.keys.signing.list());
  // The same client, still holding its token of the key that is now previous.
  await record('clientsAfterRotation', async () => (await management.clients.list({ fields: 'client_id', include_fields: true })).data.length);
  await record('earlierTokenAfterRotation', async () => (await withToken.resourceServers.list()).data.length);
  await record('settingsUpdate', () => management.tenants.settings.update({ friendly_name: 'Rotated Tenant', session_lifetime: 24 }));
  await record('settingsGet', () => management.tenants.settings.get({ fields: 'friendly_name,session_lifetime', include_fields: true }));
} else {
  await record('revoke', () => withCredentials().keys.signing.revoke(input.kid!));
  await record('revokedKey', () => withCredentials().keys.signing.get(input.kid!));
  await record('earlierTokenAfterRevocation', async () => (await withToken.resourceServers.list()).data.length);
  await record('freshClientAfterRevocation', async () => (await withCredentials().resourceServers.list()).data.length);
}

process.stdout.write(JSON.stringify(out));
