import type { EmailProviderChanges, EmailProviderStore, EmailTemplateChanges, EmailTemplateStore } from '../../domain/email/store.js';
import type { EmailProviderRow, EmailTemplateRow } from '../../domain/email/rows.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';
import { parsedRow, toStored } from '../json-columns.js';

export class KyselyEmailProviderStore implements EmailProviderStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string): Promise<EmailProviderRow | undefined> {
    return parsedRow('email_providers', this.db.selectFrom('email_providers').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst());
  }

  async insert(row: EmailProviderRow): Promise<boolean> {
    try {
      await this.db.insertInto('email_providers').values(toStored('email_providers', row)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, changes: EmailProviderChanges): Promise<boolean> {
    const result = await this.db.updateTable('email_providers').set(toStored('email_providers', changes)).where('tenant_id', '=', tenantId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('email_providers').where('tenant_id', '=', tenantId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export class KyselyEmailTemplateStore implements EmailTemplateStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, template: string): Promise<EmailTemplateRow | undefined> {
    return this.db.selectFrom('email_templates').selectAll().where('tenant_id', '=', tenantId).where('template', '=', template).executeTakeFirst();
  }

  async insert(row: EmailTemplateRow): Promise<boolean> {
    try {
      await this.db.insertInto('email_templates').values(row).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, template: string, changes: EmailTemplateChanges): Promise<boolean> {
    const result = await this.db.updateTable('email_templates').set(changes).where('tenant_id', '=', tenantId).where('template', '=', template).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
