import { atomically, type Db } from '../database.js';
import {
  DEFAULT_PUSH_PROVIDER,
  type ApnsSettings,
  type FcmProvider,
  type GuardianPushRow,
  type PushNotificationSettings,
  type PushProvider,
  type SnsSettings,
} from '../../domain/guardian/model.js';
import type { GuardianPushStore } from '../../domain/guardian/store.js';

type ApnsColumns = Pick<GuardianPushRow, 'apns' | 'apns_p12_enc'>;
type SnsColumns = Pick<GuardianPushRow, 'sns' | 'sns_secret_access_key_enc'>;

/**
 * How each provider's settings map onto its columns: a JSON column, and the
 * secret in a column of its own (null when absent or cleared, so the JSON
 * never holds it). `fromColumns` is what `get` returns: a null secret reads
 * back as absent.
 */
const codecs = {
  apns: {
    toColumns({ p12_enc, ...rest }: ApnsSettings): ApnsColumns {
      return { apns: JSON.stringify(rest), apns_p12_enc: p12_enc ?? null };
    },
    fromColumns(row: ApnsColumns): ApnsSettings | null {
      if (row.apns === null) return null;
      const settings = JSON.parse(row.apns) as ApnsSettings;
      if (row.apns_p12_enc !== null) settings.p12_enc = row.apns_p12_enc;
      return settings;
    },
  },
  sns: {
    toColumns({ aws_secret_access_key_enc, ...rest }: SnsSettings): SnsColumns {
      return { sns: JSON.stringify(rest), sns_secret_access_key_enc: aws_secret_access_key_enc ?? null };
    },
    fromColumns(row: SnsColumns): SnsSettings | null {
      if (row.sns === null) return null;
      const settings = JSON.parse(row.sns) as SnsSettings;
      if (row.sns_secret_access_key_enc !== null) settings.aws_secret_access_key_enc = row.sns_secret_access_key_enc;
      return settings;
    },
  },
};

/** Members whose value is undefined are "not given" and must not overwrite on merge. */
function given<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

const TABLE = 'guardian_push_notification';

/** The columns a new row starts with (the migration's defaults; the other columns are null). */
const NEW_ROW = { enabled: 0, selected_provider: DEFAULT_PUSH_PROVIDER } as const;

export class KyselyGuardianPushStore implements GuardianPushStore {
  constructor(private readonly db: Db) {}

  async get(tenantId: string): Promise<PushNotificationSettings> {
    const row = await this.db.selectFrom(TABLE).selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
    if (!row) return { enabled: false, selected_provider: DEFAULT_PUSH_PROVIDER, apns: null, sns: null };
    return {
      enabled: row.enabled === 1,
      selected_provider: row.selected_provider as PushProvider,
      apns: codecs.apns.fromColumns(row),
      sns: codecs.sns.fromColumns(row),
      ...(row.fcm_server_key_enc && { fcm_server_key_enc: row.fcm_server_key_enc }),
      ...(row.fcmv1_credentials_enc && { fcmv1_credentials_enc: row.fcmv1_credentials_enc }),
    };
  }

  async setFcmCredential(tenantId: string, provider: FcmProvider, sealed: string | null, updatedAt: string): Promise<void> {
    await this.upsert(tenantId, provider === 'fcm' ? { fcm_server_key_enc: sealed } : { fcmv1_credentials_enc: sealed }, updatedAt);
  }

  async setEnabled(tenantId: string, enabled: boolean, updatedAt: string): Promise<void> {
    await this.upsert(tenantId, { enabled: enabled ? 1 : 0 }, updatedAt);
  }

  async setSelectedProvider(tenantId: string, provider: PushProvider, updatedAt: string): Promise<void> {
    await this.upsert(tenantId, { selected_provider: provider }, updatedAt);
  }

  async replaceApns(tenantId: string, apns: ApnsSettings, updatedAt: string): Promise<ApnsSettings> {
    const columns = codecs.apns.toColumns(given(apns));
    await this.upsert(tenantId, columns, updatedAt);
    return codecs.apns.fromColumns(columns) as ApnsSettings;
  }

  mergeApns(tenantId: string, changes: ApnsSettings, updatedAt: string): Promise<ApnsSettings> {
    return atomically(this.db, async (trx) => {
      const current = codecs.apns.fromColumns(await this.lock(trx, tenantId, updatedAt)) ?? {};
      const columns = codecs.apns.toColumns({ ...current, ...given(changes) });
      await trx.updateTable(TABLE).set(columns).where('tenant_id', '=', tenantId).execute();
      return codecs.apns.fromColumns(columns) as ApnsSettings;
    });
  }

  async replaceSns(tenantId: string, sns: SnsSettings, updatedAt: string): Promise<SnsSettings> {
    const columns = codecs.sns.toColumns(given(sns));
    await this.upsert(tenantId, columns, updatedAt);
    return codecs.sns.fromColumns(columns) as SnsSettings;
  }

  mergeSns(tenantId: string, changes: SnsSettings, updatedAt: string): Promise<SnsSettings> {
    return atomically(this.db, async (trx) => {
      const current = codecs.sns.fromColumns(await this.lock(trx, tenantId, updatedAt)) ?? {};
      const columns = codecs.sns.toColumns({ ...current, ...given(changes) });
      await trx.updateTable(TABLE).set(columns).where('tenant_id', '=', tenantId).execute();
      return codecs.sns.fromColumns(columns) as SnsSettings;
    });
  }

  /** Sets `columns`, creating the tenant's row with the defaults first if needed: one INSERT … ON CONFLICT statement. */
  private async upsert(
    tenantId: string,
    columns: Partial<Omit<GuardianPushRow, 'tenant_id' | 'updated_at'>>,
    updatedAt: string,
  ): Promise<void> {
    await this.db
      .insertInto(TABLE)
      .values({ ...NEW_ROW, tenant_id: tenantId, ...columns, updated_at: updatedAt })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...columns, updated_at: updatedAt }))
      .execute();
  }

  /**
   * Inside a transaction: makes sure the tenant's row exists and takes its
   * write lock before reading it, with one upsert that touches `updated_at`
   * and returns the row. A write first (rather than SELECT … FOR UPDATE,
   * which SQLite lacks) serialises read-modify-write on both databases:
   * PostgreSQL locks the row until commit, SQLite takes the database's write
   * lock at the first write of the transaction.
   */
  private lock(trx: Db, tenantId: string, updatedAt: string): Promise<GuardianPushRow> {
    return trx
      .insertInto(TABLE)
      .values({ ...NEW_ROW, tenant_id: tenantId, updated_at: updatedAt })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ updated_at: updatedAt }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
