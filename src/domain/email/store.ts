/**
 * Storage of the tenant's mail provider and email templates.
 * Implemented by src/storage/kysely/email.ts; the composition root builds one.
 */
import type { EmailProviderRow, EmailTemplateRow } from './rows.js';

export type EmailProviderChanges = Partial<Omit<EmailProviderRow, 'tenant_id' | 'created_at'>>;
export type EmailTemplateChanges = Partial<Omit<EmailTemplateRow, 'tenant_id' | 'template' | 'created_at'>>;

export interface EmailProviderStore {
  get(tenantId: string): Promise<EmailProviderRow | undefined>;
  /** False when the tenant already has one (the primary key decides). */
  insert(row: EmailProviderRow): Promise<boolean>;
  /** False when the tenant has none. */
  update(tenantId: string, changes: EmailProviderChanges): Promise<boolean>;
  /** False when the tenant had none. */
  delete(tenantId: string): Promise<boolean>;
}

export interface EmailTemplateStore {
  get(tenantId: string, template: string): Promise<EmailTemplateRow | undefined>;
  /** False when the tenant already has that template. */
  insert(row: EmailTemplateRow): Promise<boolean>;
  /** False when the tenant has no such template. */
  update(tenantId: string, template: string, changes: EmailTemplateChanges): Promise<boolean>;
}
