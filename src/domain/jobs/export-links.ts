/**
 * The download link of a users export: `https://{domain}/jobs/exports/{job id}/{file}?expires=…&signature=…`,
 * where the signature is an HMAC (platform/crypto/form-tokens.ts, a key of its
 * own derived from the master key) of the tenant, the job, the file name and
 * the expiry. It needs no storage and works in every process; a changed
 * member or a passed expiry is refused (403).
 */
import { lifetimeOf } from '../lifetimes.js';
import type { JobRow } from '../rows.js';
import type { Tenant } from '../tenants/tenant.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';

const PURPOSE = 'users-export-link';

/** The file name the link ends with (the export is served gzipped, as the service's). */
export function exportFileName(job: Pick<JobRow, 'params'>): string {
  return `users.${job.params.format === 'csv' ? 'csv' : 'json'}.gz`;
}

/** What signing and checking export links takes. */
export interface ExportLinkContext {
  formTokens(purpose: string): FormTokens;
  readonly now: () => number;
}

export function exportLink(ctx: ExportLinkContext, tenant: Tenant, job: JobRow): string {
  const expires = String(Math.floor(ctx.now() / 1000) + lifetimeOf(tenant, 'export_link'));
  const file = exportFileName(job);
  const signature = ctx.formTokens(PURPOSE).token(tenant.id, job.id, file, expires);
  return `https://${tenant.domain}/jobs/exports/${encodeURIComponent(job.id)}/${file}?${new URLSearchParams({ expires, signature })}`;
}

/** Whether a link's members are signed and not expired. */
export function exportLinkValid(ctx: ExportLinkContext, tenantId: string, jobId: string, file: string, expires: string, signature: string): boolean {
  if (!/^\d{1,12}$/.test(expires) || Number(expires) * 1000 <= ctx.now()) return false;
  return ctx.formTokens(PURPOSE).matches(signature, tenantId, jobId, file, expires);
}
