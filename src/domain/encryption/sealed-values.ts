/**
 * Every place a tenant's secrets are sealed at rest, and how each is re-sealed
 * under another key (what a rekey walks, src/domain/encryption/rekey.ts).
 * A new sealed column is one entry here: the table, its key, the columns, and
 * the additional data (context) each value is bound to — the same function
 * its owner seals and opens with.
 *
 * What is sealed but belongs to no tenant's storage (paging checkpoints,
 * login state, tickets handed to browsers) stays under the environment root
 * key and expires within minutes; it is not listed.
 */
import { captchaSecretsContext } from '../attack-protection/captcha.js';
import { actionModuleSecretContext, actionSecretContext } from '../actions/secrets.js';
import type { StoredActionSecret } from '../actions/rows.js';
import { connectionSecretContext, SEALED_OPTION_MEMBERS, SEALED_OPTIONS_MEMBER } from '../connections/sealed-options.js';
import { CREDENTIALS_SEAL } from '../email/provider.js';
import { duoSecretKeyContext } from '../guardian/duo.js';
import { apnsP12Context, fcmCredentialContext, snsAccessKeyIdContext, snsSecretAccessKeyContext } from '../guardian/model.js';
import { signingKeyContext } from '../keys/keyring.js';
import { streamAuthorizationContext } from '../log-streams/delivery.js';
import { pushTokenContext, totpSecretContext, twilioAuthTokenContext } from '../mfa/model.js';
import { INVITATION_TICKET_SEAL } from '../organizations/invitations-store.js';
import { signingSecretContext } from '../resource-servers/model.js';
import { clientSecretContext } from '../tenants/service.js';
import { upstreamTokenContext } from '../upstream-tokens/vault.js';
import type { SealedRow, SealedTable } from './store.js';

/**
 * Re-seals one value bound to `context` under the target key; undefined when
 * it already is under it (or is null), so an unchanged row is not written.
 */
export type Move = (sealed: string | null, context: string) => string | undefined;

export interface SealedValueSource extends SealedTable {
  /** Names the source in the job's progress and in logs. */
  readonly name: string;
  /** The columns of `row` that change, or undefined when none does. */
  reseal(tenantId: string, row: SealedRow, move: Move): SealedRow | undefined;
}

/** A source whose sealed columns are plain text columns, each bound by `context`. */
function columns(name: string, table: string, key: readonly string[], contexts: Record<string, (tenantId: string, row: SealedRow) => string>): SealedValueSource {
  return {
    name,
    table,
    key,
    columns: Object.keys(contexts),
    reseal(tenantId, row, move) {
      const changes: SealedRow = {};
      for (const [column, context] of Object.entries(contexts)) {
        const moved = move(row[column] ?? null, context(tenantId, row));
        if (moved !== undefined) changes[column] = moved;
      }
      return Object.keys(changes).length > 0 ? changes : undefined;
    },
  };
}

/** Action secrets: a JSON list of `{name, value_enc, updated_at}`, each bound to its action and name. */
function actionSecrets(
  name: string,
  table: 'actions' | 'action_versions' | 'action_modules' | 'action_module_versions',
  actionIdColumn: string,
  context: (tenantId: string, ownerId: string, secretName: string) => string = actionSecretContext,
): SealedValueSource {
  return {
    name,
    table,
    key: ['id'],
    columns: actionIdColumn === 'id' ? ['secrets'] : ['secrets', actionIdColumn],
    reseal(tenantId, row, move) {
      const secrets = JSON.parse(row.secrets ?? '[]') as StoredActionSecret[];
      let changed = false;
      const next = secrets.map((secret) => {
        const moved = move(secret.value_enc, context(tenantId, row[actionIdColumn]!, secret.name));
        if (moved === undefined) return secret;
        changed = true;
        return { ...secret, value_enc: moved };
      });
      return changed ? { secrets: JSON.stringify(next) } : undefined;
    },
  };
}

/** Guardian push settings: the APNs p12, the SNS secret and the FCM credentials in columns, the SNS access key id inside the `sns` JSON. */
const guardianPush: SealedValueSource = {
  name: 'guardian push notification credentials',
  table: 'guardian_push_notification',
  key: [],
  columns: ['apns_p12_enc', 'sns_secret_access_key_enc', 'sns', 'fcm_server_key_enc', 'fcmv1_credentials_enc'],
  reseal(tenantId, row, move) {
    const changes: SealedRow = {};
    for (const [column, provider] of [['fcm_server_key_enc', 'fcm'], ['fcmv1_credentials_enc', 'fcmv1']] as const) {
      const moved = move(row[column] ?? null, fcmCredentialContext(tenantId, provider));
      if (moved !== undefined) changes[column] = moved;
    }
    const p12 = move(row.apns_p12_enc ?? null, apnsP12Context(tenantId));
    if (p12 !== undefined) changes.apns_p12_enc = p12;
    const secret = move(row.sns_secret_access_key_enc ?? null, snsSecretAccessKeyContext(tenantId));
    if (secret !== undefined) changes.sns_secret_access_key_enc = secret;
    if (row.sns) {
      const sns = JSON.parse(row.sns) as { aws_access_key_id_enc?: string | null };
      const keyId = move(sns.aws_access_key_id_enc ?? null, snsAccessKeyIdContext(tenantId));
      if (keyId !== undefined) changes.sns = JSON.stringify({ ...sns, aws_access_key_id_enc: keyId });
    }
    return Object.keys(changes).length > 0 ? changes : undefined;
  },
};

/** Connections' upstream secrets: inside the `options` JSON, in its reserved member, each bound to its connection and name. */
const connectionSecrets: SealedValueSource = {
  name: 'connection secrets',
  table: 'connections',
  key: ['id'],
  columns: ['options'],
  reseal(tenantId, row, move) {
    if (!row.options) return undefined;
    const options = JSON.parse(row.options) as Record<string, unknown>;
    const sealed = options[SEALED_OPTIONS_MEMBER] as Record<string, string> | undefined;
    if (typeof sealed !== 'object' || sealed === null) return undefined;
    const next = { ...sealed };
    let changed = false;
    for (const member of SEALED_OPTION_MEMBERS) {
      const moved = typeof sealed[member] === 'string' ? move(sealed[member], connectionSecretContext(tenantId, row.id!, member)) : undefined;
      if (moved === undefined) continue;
      next[member] = moved;
      changed = true;
    }
    return changed ? { options: JSON.stringify({ ...options, [SEALED_OPTIONS_MEMBER]: next }) } : undefined;
  },
};

export const SEALED_VALUE_SOURCES: readonly SealedValueSource[] = [
  columns('signing keys', 'signing_keys', ['kid'], { private_key_enc: (t, r) => signingKeyContext(t, r.kid!) }),
  columns('client secrets', 'clients', ['client_id'], { client_secret_enc: (t, r) => clientSecretContext(t, r.client_id!) }),
  columns('API signing secrets', 'resource_servers', ['id'], { signing_secret_enc: (t, r) => signingSecretContext(t, r.id!) }),
  columns('upstream tokens', 'upstream_token_sets', ['id'], {
    access_token: (t, r) => upstreamTokenContext(t, r.id!),
    refresh_token: (t, r) => upstreamTokenContext(t, r.id!),
  }),
  actionSecrets('action secrets', 'actions', 'id'),
  actionSecrets('action version secrets', 'action_versions', 'action_id'),
  actionSecrets('action module secrets', 'action_modules', 'id', actionModuleSecretContext),
  actionSecrets('action module version secrets', 'action_module_versions', 'module_id', actionModuleSecretContext),
  columns('MFA enrolments', 'mfa_authenticators', ['id'], {
    secret_enc: (t, r) => totpSecretContext(t, r.id!),
    push_token_enc: (t, r) => pushTokenContext(t, r.id!),
  }),
  guardianPush,
  columns('Duo secret keys', 'guardian_duo', [], { skey_enc: (t) => duoSecretKeyContext(t) }),
  columns('Twilio credentials', 'guardian_sms', [], { twilio_auth_token_enc: (t) => twilioAuthTokenContext(t) }),
  columns('email provider credentials', 'email_providers', [], { credentials_enc: () => CREDENTIALS_SEAL }),
  columns('log stream authorization', 'log_streams', ['id'], { authorization_enc: (t, r) => streamAuthorizationContext(t, r.id!) }),
  columns('CAPTCHA provider secrets', 'captcha_settings', [], { secrets_enc: (t) => captchaSecretsContext(t) }),
  columns('organization invitation tickets', 'organization_invitations', ['id'], { ticket_enc: () => INVITATION_TICKET_SEAL }),
  connectionSecrets,
];
