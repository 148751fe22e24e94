import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ManagementError, managementErrors } from '../../platform/http/errors.js';
import { scanJson } from '../../platform/http/json-body.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { JobResponse } from './schema.js';
import type { ImportRequest, JobService } from './service.js';

/** Form fields besides the file, and the size each may have. */
const FIELDS = ['connection_id', 'upsert', 'external_id', 'send_completion_email'] as const;
const MAX_FIELD_BYTES = 1024;

const invalid = (message: string) => managementErrors.badRequest(message, 'invalid_body');
const nulRefused = (name: string) => invalid(`Payload validation error: 'String contains a NUL character' on property ${name}.`);

function flag(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalid(`Payload validation error: 'Expected type boolean but found type string' on property ${name}.`);
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('The users file must be UTF-8 text.');
  }
}

/**
 * The multipart body, read part by part with every size bounded: one `users`
 * file of at most GATEHOUSE_USERS_IMPORT_MAX_BYTES (413 beyond, as the
 * service's "Payload content length greater than maximum allowed"), and the
 * four fields of the document of at most 1 KiB each; anything else is refused.
 * A body that is not well-formed multipart (truncated, without or with another
 * boundary, a part without a name or with a malformed header, no body at all)
 * is the Management API's 400, whatever the parser's error: it can only
 * come from the bytes the client sent. No value may carry a NUL character
 * (../../platform/http/nul-characters.ts), the file's JSON escapes included.
 */
async function readImportRequest(request: FastifyRequest, maxBytes: number): Promise<ImportRequest> {
  if (!request.isMultipart()) throw invalid('The request must be multipart/form-data with a users file.');
  const fields = new Map<string, string>();
  let users: string | undefined;
  try {
    for await (const part of request.parts({ limits: { files: 1, fields: FIELDS.length, parts: FIELDS.length + 1, fieldSize: MAX_FIELD_BYTES, fileSize: maxBytes, fieldNameSize: 64 } })) {
      // A part whose Content-Disposition names nothing.
      if (typeof part.fieldname !== 'string' || part.fieldname === '') throw invalid("Payload validation error: 'Every part must have a name'.");
      if (part.type === 'file') {
        const file = part as MultipartFile;
        if (file.fieldname !== 'users') throw invalid(`Payload validation error: 'Additional properties not allowed: ${file.fieldname.slice(0, 64)}'.`);
        const bytes = await file.toBuffer();
        users = utf8(bytes);
        if (users.includes('\u0000') || scanJson(users, Number.POSITIVE_INFINITY) === 'nul') throw nulRefused('users');
      } else {
        const field = part as MultipartValue<unknown>;
        if (!(FIELDS as readonly string[]).includes(field.fieldname)) throw invalid(`Payload validation error: 'Additional properties not allowed: ${field.fieldname.slice(0, 64)}'.`);
        if (field.valueTruncated) throw invalid(`Payload validation error: 'String is too long' on property ${field.fieldname}.`);
        if (String(field.value).includes('\u0000')) throw nulRefused(field.fieldname);
        fields.set(field.fieldname, String(field.value));
      }
    }
  } catch (error) {
    if (error instanceof ManagementError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ManagementError(413, `Payload content length greater than maximum allowed: ${maxBytes}.`);
    if (typeof code === 'string' && code.startsWith('FST_')) throw invalid(`The multipart body was refused: ${(error as Error).message}`);
    // busboy's own errors (Unexpected end of form, Malformed part header, Boundary not found, …): the message names the fault, never a value.
    throw invalid(`The multipart body is malformed: ${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'}.`);
  }
  if (users === undefined) throw invalid("Payload validation error: 'Missing required property: users'.");
  const connectionId = fields.get('connection_id');
  if (connectionId === undefined) throw invalid("Payload validation error: 'Missing required property: connection_id'.");
  if (!/^con_[A-Za-z0-9]{16}$/.test(connectionId)) {
    throw invalid(`Payload validation error: 'String does not match pattern ^con_[A-Za-z0-9]{16}$: ${connectionId.slice(0, 64)}' on property connection_id.`);
  }
  const externalId = fields.get('external_id');
  return {
    users,
    connection_id: connectionId,
    upsert: flag(fields.get('upsert'), 'upsert', false),
    external_id: externalId === '' ? undefined : externalId,
    send_completion_email: flag(fields.get('send_completion_email'), 'send_completion_email', true),
  };
}

/** What POST /jobs/users-imports reads of the context itself: the import's size limit. */
export interface UsersImportRouteContext {
  readonly config: { readonly jobs: { readonly importMaxBytes: number } };
}

/** POST /api/v2/jobs/users-imports (multipart) → 202 with the pending job; the runner imports in the background. */
export const createUsersImport: ManagementRouteFactory<JobService, UsersImportRouteContext> = (ctx, jobs) => managementRoute({
  method: 'POST',
  url: '/jobs/users-imports',
  config: { scopes: ['create:users'] },
  schema: { consumes: ['multipart/form-data'], response: { 202: JobResponse } },
  handler: async (request, reply) => {
    const body = await readImportRequest(request, ctx.config.jobs.importMaxBytes);
    return reply.code(202).send(await jobs.createImport(request.tenant, body));
  },
});
