/**
 * Log streams of type `http` (the service's Custom Webhook): configuration
 * here, delivery in src/domain/log-streams/delivery.ts. The other types of
 * the document are refused with 400 naming the type. The sink's
 * Authorization header is sealed at rest and never returned. A new stream
 * starts at its creation (or at `startFrom`, within the retention); a paused
 * stream keeps its place and, once active again, sends what it missed.
 * At most MAX_STREAMS per tenant (409 beyond, as the service answers).
 */
import { Value } from '@sinclair/typebox/value';
import { streamAuthorizationContext } from '../../domain/log-streams/delivery.js';
import type { LogStreamChanges, LogStreamStore } from '../../domain/log-streams/store.js';
import { logIdFloor } from '../../domain/logs/log-id.js';
import type { LogStreamHttpSink, LogStreamRow } from '../../domain/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { managementErrors } from '../../platform/http/errors.js';
import { HttpSinkBody, type CreateLogStreamBody, type LogStreamResponse, type UpdateLogStreamBody } from './schema.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

export const MAX_STREAMS = 10;

function toApi(row: LogStreamRow): LogStreamResponse {
  const sink: LogStreamResponse['sink'] = { httpEndpoint: row.sink.httpEndpoint };
  if (row.sink.httpContentType !== undefined) sink.httpContentType = row.sink.httpContentType;
  if (row.sink.httpContentFormat !== undefined) sink.httpContentFormat = row.sink.httpContentFormat;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    type: row.type,
    isPriority: false,
    ...(row.filters.length > 0 && { filters: row.filters }),
    sink,
  };
}

/** The http sink of a create body, or a 400 in the service's words. */
function httpSink(sink: unknown): HttpSinkBody {
  if (Value.Check(HttpSinkBody, sink)) return sink;
  const first = Value.Errors(HttpSinkBody, sink).First();
  const property = first?.path.replace(/^\//, '').replace(/\//g, '.') || 'sink';
  throw managementErrors.invalidBody(`Payload validation error: '${first?.message ?? 'Invalid sink'}' on property sink${property === 'sink' ? '' : `.${property}`}.`);
}

/** What LogStreamService touches. */
export interface LogStreamServiceContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly logStreams: LogStreamStore };
}

export class LogStreamService {
  constructor(private readonly ctx: LogStreamServiceContext) {}

  async list(tenant: Tenant): Promise<LogStreamResponse[]> {
    return (await this.ctx.stores.logStreams.list(tenant.id)).map(toApi);
  }

  async get(tenant: Tenant, id: string): Promise<LogStreamResponse> {
    return toApi(await this.row(tenant, id));
  }

  async create(tenant: Tenant, body: CreateLogStreamBody): Promise<LogStreamResponse> {
    if (body.type !== 'http') {
      throw managementErrors.badRequest(`Log streams of type "${body.type}" are not available in Gatehouse; only "http" streams are.`, 'operation_not_supported');
    }
    if (body.isPriority === true) throw managementErrors.invalidBody('Payload validation error: \'Priority log streams are not available in Gatehouse\' on property isPriority.');
    const sink = httpSink(body.sink);
    const now = this.ctx.now();
    let start = now;
    if (body.startFrom !== undefined) {
      start = Date.parse(body.startFrom);
      if (Number.isNaN(start) || start > now) throw managementErrors.invalidBody('Payload validation error: \'startFrom must be an ISO 8601 date-time, not in the future\' on property startFrom.');
    }
    if ((await this.ctx.stores.logStreams.count(tenant.id)) >= MAX_STREAMS) {
      throw managementErrors.conflict('You have reached the maximum number of log streams for your account.');
    }
    const id = newPrefixedId('lst');
    const row: LogStreamRow = {
      tenant_id: tenant.id,
      id,
      name: body.name ?? `http-${id.slice(4)}`,
      type: 'http',
      status: 'active',
      filters: body.filters ?? [],
      sink: { httpEndpoint: sink.httpEndpoint, httpContentType: sink.httpContentType ?? 'application/json', httpContentFormat: sink.httpContentFormat ?? 'JSONLINES' },
      authorization_enc: sink.httpAuthorization ? this.ctx.box.seal(sink.httpAuthorization, streamAuthorizationContext(tenant.id, id), tenant.id) : null,
      // Every event recorded from `start` on sorts after this cursor.
      cursor: logIdFloor(start),
      attempts: 0,
      next_attempt_at: isoAt(now),
      lease_owner: null,
      lease_until: null,
      last_error: null,
      created_at: isoAt(now),
      updated_at: isoAt(now),
    };
    await this.ctx.stores.logStreams.create(row);
    return toApi(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateLogStreamBody): Promise<LogStreamResponse> {
    const row = await this.row(tenant, id);
    if (body.isPriority === true) throw managementErrors.invalidBody('Payload validation error: \'Priority log streams are not available in Gatehouse\' on property isPriority.');
    const changes: LogStreamChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.filters !== undefined) changes.filters = body.filters;
    if (body.status !== undefined) {
      changes.status = body.status;
      // Resumed: the next attempt at once, the backoff forgotten.
      if (body.status === 'active' && row.status !== 'active') Object.assign(changes, { attempts: 0, next_attempt_at: isoAt(this.ctx.now()) });
    }
    if (body.sink !== undefined) {
      const { httpAuthorization, ...rest } = body.sink;
      const sink: LogStreamHttpSink = { ...row.sink, ...rest };
      changes.sink = sink;
      if (httpAuthorization !== undefined) {
        changes.authorization_enc = httpAuthorization === '' ? null : this.ctx.box.seal(httpAuthorization, streamAuthorizationContext(tenant.id, id), tenant.id);
      }
    }
    const updated = await this.ctx.stores.logStreams.update(tenant.id, id, changes, isoAt(this.ctx.now()));
    if (!updated) throw notFound();
    return toApi(updated);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.logStreams.delete(tenant.id, id))) throw notFound();
  }

  private async row(tenant: Tenant, id: string): Promise<LogStreamRow> {
    const row = await this.ctx.stores.logStreams.get(tenant.id, id);
    if (!row) throw notFound();
    return row;
  }
}

function notFound(): Error {
  return managementErrors.notFound('The log stream does not exist.', 'inexistent_log_stream');
}
