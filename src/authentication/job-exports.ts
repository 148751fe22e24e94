/**
 * GET /jobs/exports/{job id}/{file}?expires=…&signature=…: the download of a
 * users export, the `location` GET /api/v2/jobs/{id} hands out (no bearer
 * token: the signed, expiring link is the authorization, as the service's
 * pre-signed storage links are). Served gzipped, streamed part by part; a link that is expired,
 * tampered with or for another tenant is refused with 403, and nothing is read
 * before the signature is checked.
 */
import { Readable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import type { RouteOptions } from 'fastify';
import { exportFileName, exportLinkValid, type ExportLinkContext } from '../domain/jobs/export-links.js';
import { oauthErrors } from '../platform/http/errors.js';
import { pick, readQuery } from './params.js';
import type { JobStore } from '../domain/jobs/store.js';

const refused = () => oauthErrors.accessDenied('The download link is invalid or has expired.');

/** What serving export files touches. */
export interface JobExportContext extends ExportLinkContext {
  readonly stores: { readonly jobs: JobStore };
}

/** The parts of an export in order, a few at a time: the download holds a few pages in memory, not the file. */
async function* parts(ctx: JobExportContext, tenantId: string, jobId: string): AsyncGenerator<string> {
  let after = -1;
  for (;;) {
    const batch = await ctx.stores.jobs.fileParts(tenantId, jobId, after, 8);
    for (const part of batch) yield part.content;
    if (batch.length < 8) return;
    after = batch[batch.length - 1]!.part;
  }
}

export function jobExportDownload(ctx: JobExportContext): RouteOptions {
  return {
    method: 'GET',
    url: '/jobs/exports/:id/:file',
    handler: async (request, reply) => {
      const { id, file } = request.params as { id: string; file: string };
      const params = pick(readQuery(request), ['expires', 'signature']);
      const expires = params.expires ?? '';
      const signature = params.signature ?? '';
      if (!exportLinkValid(ctx, request.tenant.id, id, file, expires, signature)) throw refused();
      const job = await ctx.stores.jobs.get(request.tenant.id, id);
      if (!job || job.type !== 'users_export' || job.status !== 'completed' || exportFileName(job) !== file) throw refused();
      reply.header('Cache-Control', 'private, no-store').header('Content-Disposition', `attachment; filename="${file}"`).type('application/gzip');
      // An export written before migration 0091 is one row of job_files.
      const whole = await ctx.stores.jobs.file(request.tenant.id, id, 'output');
      if (whole !== undefined) return reply.send(gzipSync(whole));
      return reply.send(Readable.from(parts(ctx, request.tenant.id, id)).pipe(createGzip()));
    },
  };
}
