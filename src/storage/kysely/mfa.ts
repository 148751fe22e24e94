/**
 * Multi-factor authentication (migration 0020): factors, policies,
 * enrolments, out-of-band challenges and the count of wrong codes.
 */
import { atomically, type Db } from '../database.js';
import type { MfaAuthenticatorRow, MfaChallengeRow } from '../../domain/mfa/rows.js';
import {
  DEFAULT_SMS_TEMPLATES,
  FACTOR_NAMES,
  MFA_POLICIES,
  PHONE_PROVIDERS,
  type FactorName,
  type MfaPolicy,
  type PhoneMessageType,
  type PhoneProvider,
  type SmsSettings,
  type SmsTemplates,
  type TwilioSettings,
} from '../../domain/mfa/model.js';
import type { MfaStore, PushDevice } from '../../domain/mfa/store.js';
import type { GuardianSmsRow } from '../../domain/guardian/rows.js';
import { ArtefactTable } from './expiring-artefacts.js';

const FACTORS: ReadonlySet<string> = new Set(FACTOR_NAMES);
const POLICIES: ReadonlySet<string> = new Set(MFA_POLICIES);

export class KyselyMfaStore implements MfaStore {
  /** Challenges are an artefact table (./expiring-artefacts.ts). */
  readonly #challenges: ArtefactTable<'mfa_challenges'>;

  constructor(private readonly db: Db) {
    this.#challenges = new ArtefactTable(db, 'mfa_challenges');
  }

  async enabledFactors(tenantId: string): Promise<Set<FactorName>> {
    const rows = await this.db.selectFrom('guardian_factors').select('name').where('tenant_id', '=', tenantId).where('enabled', '=', 1).execute();
    return new Set(rows.map((r) => r.name).filter((n): n is FactorName => FACTORS.has(n)));
  }

  async setFactor(tenantId: string, name: FactorName, enabled: boolean, now: string): Promise<void> {
    const value = enabled ? 1 : 0;
    await this.db
      .insertInto('guardian_factors')
      .values({ tenant_id: tenantId, name, enabled: value, updated_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'name']).doUpdateSet({ enabled: value, updated_at: now }))
      .execute();
  }

  async policies(tenantId: string): Promise<MfaPolicy[]> {
    const row = await this.db.selectFrom('guardian_policies').select('policies').where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!row) return [];
    return (JSON.parse(row.policies) as string[]).filter((p): p is MfaPolicy => POLICIES.has(p));
  }

  async setPolicies(tenantId: string, policies: readonly MfaPolicy[], now: string): Promise<void> {
    const text = JSON.stringify(policies);
    await this.db
      .insertInto('guardian_policies')
      .values({ tenant_id: tenantId, policies: text, updated_at: now })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ policies: text, updated_at: now }))
      .execute();
  }

  async smsSettings(tenantId: string): Promise<SmsSettings> {
    const row = await this.db.selectFrom('guardian_sms').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!row) return { twilio: null, templates: DEFAULT_SMS_TEMPLATES, selectedProvider: 'auth0', messageTypes: ['sms'] };
    let twilio: TwilioSettings | null = null;
    if (row.twilio !== null) {
      twilio = JSON.parse(row.twilio) as TwilioSettings;
      if (row.twilio_auth_token_enc !== null) twilio.auth_token_enc = row.twilio_auth_token_enc;
    }
    return {
      twilio,
      templates: row.templates === null ? DEFAULT_SMS_TEMPLATES : (JSON.parse(row.templates) as SmsTemplates),
      selectedProvider: (PHONE_PROVIDERS as readonly string[]).includes(row.selected_provider ?? '') ? (row.selected_provider as PhoneProvider) : 'auth0',
      messageTypes: row.message_types === null ? ['sms'] : (JSON.parse(row.message_types) as PhoneMessageType[]),
    };
  }

  setPhoneProvider(tenantId: string, provider: PhoneProvider, now: string): Promise<void> {
    return this.upsertSms(tenantId, { selected_provider: provider, updated_at: now });
  }

  setPhoneMessageTypes(tenantId: string, types: readonly PhoneMessageType[], now: string): Promise<void> {
    return this.upsertSms(tenantId, { message_types: JSON.stringify(types), updated_at: now });
  }

  /** The tenant's one guardian_sms row, made with these columns or given them. */
  private async upsertSms(tenantId: string, columns: Partial<Omit<GuardianSmsRow, 'tenant_id'>> & { updated_at: string }): Promise<void> {
    await this.db
      .insertInto('guardian_sms')
      .values({ tenant_id: tenantId, twilio: null, twilio_auth_token_enc: null, templates: null, selected_provider: null, message_types: null, ...columns })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(columns))
      .execute();
  }

  setTwilio(tenantId: string, { auth_token_enc, ...rest }: TwilioSettings, now: string): Promise<void> {
    return this.upsertSms(tenantId, { twilio: JSON.stringify(rest), twilio_auth_token_enc: auth_token_enc ?? null, updated_at: now });
  }

  setSmsTemplates(tenantId: string, templates: SmsTemplates, now: string): Promise<void> {
    return this.upsertSms(tenantId, { templates: JSON.stringify(templates), updated_at: now });
  }

  authenticators(tenantId: string, userId: string): Promise<MfaAuthenticatorRow[]> {
    return this.db
      .selectFrom('mfa_authenticators')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  authenticator(tenantId: string, id: string): Promise<MfaAuthenticatorRow | undefined> {
    return this.db.selectFrom('mfa_authenticators').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  async insertAuthenticator(row: MfaAuthenticatorRow): Promise<void> {
    await this.db.insertInto('mfa_authenticators').values(row).execute();
  }

  async confirmAuthenticator(tenantId: string, id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_authenticators')
      .set({ confirmed: 1, enrolled_at: now, last_auth_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('confirmed', '=', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  authenticatorByCredential(tenantId: string, credentialId: string): Promise<MfaAuthenticatorRow | undefined> {
    return this.db.selectFrom('mfa_authenticators').selectAll().where('tenant_id', '=', tenantId).where('credential_id', '=', credentialId).executeTakeFirst();
  }

  async advanceSignCount(tenantId: string, id: string, previous: number, signCount: number, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_authenticators')
      .set({ sign_count: signCount, last_auth_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('sign_count', '=', previous)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async touchAuthenticator(tenantId: string, id: string, now: string): Promise<void> {
    await this.db.updateTable('mfa_authenticators').set({ last_auth_at: now }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
  }

  async renameAuthenticator(tenantId: string, userId: string, id: string, name: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_authenticators')
      .set({ name })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteAuthenticator(tenantId: string, userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('mfa_authenticators')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAuthenticators(tenantId: string, userId: string): Promise<number> {
    const result = await this.db.deleteFrom('mfa_authenticators').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  replaceRecoveryCode(row: MfaAuthenticatorRow): Promise<void> {
    return atomically(this.db, async (trx) => {
      await trx
        .deleteFrom('mfa_authenticators')
        .where('tenant_id', '=', row.tenant_id)
        .where('user_id', '=', row.user_id)
        .where('type', '=', 'recovery-code')
        .execute();
      await trx.insertInto('mfa_authenticators').values(row).execute();
    });
  }

  spendRecoveryCode(tenantId: string, userId: string, codeHash: string, next: MfaAuthenticatorRow): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const spent = await trx
        .deleteFrom('mfa_authenticators')
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('type', '=', 'recovery-code')
        .where('code_hash', '=', codeHash)
        .executeTakeFirst();
      if (Number(spent.numDeletedRows) === 0) return false;
      await trx.insertInto('mfa_authenticators').values(next).execute();
      return true;
    });
  }

  insertChallenge(row: Omit<MfaChallengeRow, 'used_at'>): Promise<void> {
    return this.#challenges.insert({ ...row, used_at: null });
  }

  challenge(tenantId: string, oobHash: string): Promise<MfaChallengeRow | undefined> {
    return this.#challenges.find({ tenant_id: tenantId, oob_hash: oobHash });
  }

  async spendChallenge(tenantId: string, oobHash: string, now: string): Promise<boolean> {
    return (await this.#challenges.spend({ tenant_id: tenantId, oob_hash: oobHash }, now)) !== undefined;
  }

  async setPushDevice(tenantId: string, id: string, device: PushDevice, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_authenticators')
      .set({ ...device, confirmed: 1, enrolled_at: now, last_auth_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .where('type', '=', 'push')
      .where('confirmed', '=', 0)
      .where('push_token_enc', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  challengeByTransaction(tenantId: string, transactionHash: string): Promise<MfaChallengeRow | undefined> {
    return this.#challenges.find({ tenant_id: tenantId, transaction_hash: transactionHash });
  }

  async resolveChallenge(tenantId: string, transactionHash: string, status: 'approved' | 'denied', now: string): Promise<boolean> {
    const key = { tenant_id: tenantId, transaction_hash: transactionHash };
    return (await this.#challenges.updateUsable(key, now, { status }, { conditions: [['status', '=', 'pending']] })) !== undefined;
  }

  async pollChallenge(tenantId: string, oobHash: string, now: string, lastPolledBefore: string): Promise<boolean> {
    const result = await this.db
      .updateTable('mfa_challenges')
      .set({ last_polled_at: now })
      .where('tenant_id', '=', tenantId)
      .where('oob_hash', '=', oobHash)
      .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb('last_polled_at', '<=', lastPolledBefore)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  recordFailure(tenantId: string, userId: string, now: string, windowStartedAfter: string): Promise<number> {
    return atomically(this.db, async (trx) => {
      // The upsert takes the row's write lock first (as the guardian store's merges do), then the count is read.
      const row = await trx
        .insertInto('mfa_failures')
        .values({ tenant_id: tenantId, user_id: userId, failures: 1, window_started_at: now })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'user_id']).doUpdateSet((eb) => ({ failures: eb('mfa_failures.failures', '+', 1) })),
        )
        .returning(['failures', 'window_started_at'])
        .executeTakeFirstOrThrow();
      if (row.window_started_at > windowStartedAfter) return row.failures;
      await trx
        .updateTable('mfa_failures')
        .set({ failures: 1, window_started_at: now })
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .execute();
      return 1;
    });
  }

  async failures(tenantId: string, userId: string, windowStartedAfter: string): Promise<number> {
    const row = await this.db
      .selectFrom('mfa_failures')
      .select('failures')
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('window_started_at', '>', windowStartedAfter)
      .executeTakeFirst();
    return row?.failures ?? 0;
  }

  async clearFailures(tenantId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('mfa_failures').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  }
}
