/** The tenants' CAPTCHA configuration (src/storage/migrations/0250_captcha_settings.ts). */
import type { CaptchaSettingsRow, CaptchaSettingsStore } from '../../domain/attack-protection/captcha.js';
import type { Db } from '../database.js';

export class KyselyCaptchaSettingsStore implements CaptchaSettingsStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string): Promise<CaptchaSettingsRow | undefined> {
    return this.db.selectFrom('captcha_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  async put(row: CaptchaSettingsRow): Promise<void> {
    const { tenant_id: _tenant, ...changes } = row;
    await this.db.insertInto('captcha_settings').values(row).onConflict((oc) => oc.column('tenant_id').doUpdateSet(changes)).execute();
  }
}
