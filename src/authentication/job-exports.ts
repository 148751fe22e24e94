/**
 * GET /jobs/exports/{job id}/{file}?expires=…&signature=…: the download of a
 * users export, the `location` GET /api/v2/jobs/{id} hands out (no bearer
 * token: the signed, expiring link is the authorization, as the service's
 * pre-signed storage links are). Served gzipped; a link that is expired,
 * tampered with or for another tenant is refused with 403, and nothing is read
 * before the signature is checked.
 */
import { gzipSync } from 'node:zlib';
import type { RouteOptions } from 'fastify';
import type { AppContext } from '../domain/context.js';
import { exportFileName, exportLinkValid } from '../domain/jobs/export-links.js';
import { OAuthError } from '../platform/http/errors.js';
import { pick, readQuery } from './params.js';

const refused = () => new OAuthError(403, 'access_denied', 'The download link is invalid or has expired.');

export function jobExportDownload(ctx: AppContext): RouteOptions {
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
      const content = job && job.type === 'users_export' && exportFileName(job) === file ? await ctx.stores.jobs.file(request.tenant.id, id, 'output') : undefined;
      if (content === undefined) throw refused();
      return reply
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="${file}"`)
        .type('application/gzip')
        .send(gzipSync(content));
    },
  };
}
