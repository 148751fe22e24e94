/** The new-device assessor's devices and the logins' assessments (src/storage/migrations/0245_risk_assessments.ts). */
import type { Db } from '../database.js';
import type { KnownDeviceRow, RiskAssessment } from '../../domain/risk-assessments/rows.js';
import type { RiskAssessmentStore } from '../../domain/risk-assessments/store.js';
import { fromStored, toStored } from '../json-columns.js';

export class KyselyRiskAssessmentStore implements RiskAssessmentStore {
  constructor(private readonly db: Db) {}

  knownDevices(tenantId: string, userId: string, now: string): Promise<KnownDeviceRow[]> {
    return this.db
      .selectFrom('known_devices')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('last_seen_at', 'desc')
      .orderBy('device_hash')
      .execute();
  }

  async rememberDevice(row: KnownDeviceRow, keep: number): Promise<void> {
    await this.db
      .insertInto('known_devices')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'user_id', 'device_hash']).doUpdateSet({ last_seen_at: row.last_seen_at, user_agent_hash: row.user_agent_hash, expires_at: row.expires_at }),
      )
      .execute();
    const beyond = await this.db
      .selectFrom('known_devices')
      .select('device_hash')
      .where('tenant_id', '=', row.tenant_id)
      .where('user_id', '=', row.user_id)
      .orderBy('last_seen_at', 'desc')
      .orderBy('device_hash')
      .offset(keep)
      .limit(100)
      .execute();
    if (beyond.length === 0) return;
    await this.db
      .deleteFrom('known_devices')
      .where('tenant_id', '=', row.tenant_id)
      .where('user_id', '=', row.user_id)
      .where('device_hash', 'in', beyond.map((b) => b.device_hash))
      .execute();
  }

  async forgetDevices(tenantId: string, userId: string): Promise<number> {
    const result = await this.db.deleteFrom('known_devices').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async saveLoginAssessment(tenantId: string, sessionIdHash: string, assessment: RiskAssessment): Promise<void> {
    const row = toStored('login_risk_assessments', { tenant_id: tenantId, session_id_hash: sessionIdHash, assessment });
    await this.db
      .insertInto('login_risk_assessments')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'session_id_hash']).doUpdateSet({ assessment: row.assessment }))
      .execute();
  }

  async loginAssessment(tenantId: string, sessionIdHash: string): Promise<RiskAssessment | undefined> {
    const row = await this.db.selectFrom('login_risk_assessments').selectAll().where('tenant_id', '=', tenantId).where('session_id_hash', '=', sessionIdHash).executeTakeFirst();
    return row ? fromStored('login_risk_assessments', row).assessment : undefined;
  }
}
