/**
 * Event streams with `webhook` destinations: configuration here, the events
 * in src/domain/event-streams/events.ts, their delivery in
 * src/domain/event-streams/delivery.ts.
 *
 * - `eventbridge` destinations are refused (400 `operation_not_supported`,
 *   naming the type): they deliver into Amazon EventBridge as an AWS partner
 *   event source, which only the service is; a self-hosted server has no
 *   partner source to write to. `action` destinations are refused alike:
 *   Gatehouse's Actions runtime has no `event-stream` trigger.
 * - The webhook's endpoint must be https, without credentials in the URL, and
 *   an address literal (or `localhost`) must be one the outbound guard allows
 *   (public, or in GATEHOUSE_OUTBOUND_ALLOW): refused here with 400, and every
 *   delivery checks the address it connects to again, so a name that
 *   resolves to a refused address fails its delivery attempts with the
 *   guard's message.
 * - The authorization's secret is sealed at rest and never returned.
 * - At most MAX_STREAMS streams per tenant (409 beyond).
 * - Where the document and the `auth0` SDK (latest) disagree, Gatehouse
 *   answers as the SDK reads, the newer of the two (./schema.ts).
 * - The deliveries listed are the failed ones (an attempt failed and none
 *   succeeded since: the document's only status, `failed`); the history of
 *   one event also answers `pending` and `delivered`.
 */
import { Value } from '@sinclair/typebox/value';
import { EVENT_TYPES, deliveryFor, newEventId, newEventStreamId } from '../../domain/event-streams/events.js';
import { eventStreamSecretContext } from '../../domain/event-streams/delivery.js';
import type { EventDeliveryRow, EventStreamDestination, EventStreamRow, EventStreamWebhookAuthorization } from '../../domain/event-streams/rows.js';
import type { DeliveryFilter, EventStreamChanges, EventStreamStore } from '../../domain/event-streams/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { checkLiteralHost, type OutboundPolicy } from '../../platform/http/outbound-guard.js';
import { managementErrors } from '../../platform/http/errors.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import {
  WebhookConfigurationBody,
  type CreateEventStreamBody,
  type DeliveriesQuery,
  type DeliveryResponse,
  type DestinationBody,
  type EventStreamResponse,
  type RedeliverBody,
  type TestEventBody,
  type UpdateEventStreamBody,
} from './schema.js';

export const MAX_STREAMS = 10;
const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/** What EventStreamService touches. */
export interface EventStreamServiceContext extends CheckpointSealing {
  readonly config: { readonly outbound: OutboundPolicy };
  readonly stores: { readonly eventStreams: EventStreamStore };
}

function toApi(row: EventStreamRow): EventStreamResponse {
  return {
    id: row.id,
    name: row.name,
    subscriptions: row.subscriptions.map((event_type) => ({ event_type })),
    destination: row.destination,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function deliveryToApi(row: EventDeliveryRow): DeliveryResponse {
  const { id, source, specversion, type, time, data } = row.event;
  return {
    id: row.id,
    event_stream_id: row.stream_id,
    status: row.status === 'delivered' ? 'delivered' : row.attempts > 0 ? 'failed' : 'pending',
    event_type: row.event_type,
    attempts: row.attempt_log,
    event: { id, source, specversion, type, time, data },
  };
}

const invalid = (property: string, message: string) => managementErrors.invalidBody(`Payload validation error: '${message}' on property ${property}.`);

/**
 * The destination of a body: a webhook's, checked; other types refused by
 * name. The secret is required unless `current` is the stream's destination
 * and names the same method, username or header: an update (or a
 * configuration exported and imported again, which cannot carry it) keeps
 * the sealed one; `secret` is undefined then.
 */
function webhookDestination(destination: DestinationBody, policy: OutboundPolicy, current?: EventStreamDestination): { destination: EventStreamDestination; secret: string | undefined } {
  if (destination.type !== 'webhook') {
    const why = destination.type === 'eventbridge' ? 'Amazon EventBridge partner event sources exist only on the hosted service' : 'the Actions runtime has no event-stream trigger';
    throw managementErrors.badRequest(`Event streams with a destination of type "${destination.type}" are not available in Gatehouse (${why}); use a "webhook" destination.`, 'operation_not_supported');
  }
  const configuration = destination.configuration;
  if (!Value.Check(WebhookConfigurationBody, configuration)) {
    const first = Value.Errors(WebhookConfigurationBody, configuration).First();
    const path = first?.path.replace(/^\//, '').replace(/\//g, '.') ?? '';
    throw invalid(`destination.configuration${path === '' ? '' : `.${path}`}`, first?.message ?? 'Invalid configuration');
  }
  const endpoint = checkedEndpoint(configuration.webhook_endpoint, policy);
  const given = configuration.webhook_authorization;
  let authorization: EventStreamWebhookAuthorization;
  let secret: string | undefined;
  let secretName: string;
  if (given.method === 'basic') {
    authorization = { method: 'basic', username: given.username };
    [secret, secretName] = [given.password, 'password'];
  } else if (given.method === 'bearer') {
    authorization = { method: 'bearer' };
    [secret, secretName] = [given.token, 'token'];
  } else {
    if (RESERVED_HEADERS.has(given.header_key.toLowerCase())) {
      throw invalid('destination.configuration.webhook_authorization.header_key', `The header ${given.header_key} is set by Gatehouse itself`);
    }
    authorization = { method: 'custom_header', header_key: given.header_key };
    [secret, secretName] = [given.header_value, 'header_value'];
  }
  const unchanged = current !== undefined && JSON.stringify(current.configuration.webhook_authorization) === JSON.stringify(authorization);
  if (secret === undefined && !unchanged) throw invalid('destination.configuration.webhook_authorization', `Missing required property: ${secretName}`);
  return { destination: { type: 'webhook', configuration: { webhook_endpoint: endpoint, webhook_authorization: authorization } }, secret };
}

/** Headers a custom authorization header may not replace. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set(['host', 'content-type', 'content-length', 'transfer-encoding', 'connection']);

function checkedEndpoint(value: string, policy: OutboundPolicy): string {
  const property = 'destination.configuration.webhook_endpoint';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(property, `Object didn't pass validation for format https-url: ${value}`);
  }
  if (url.protocol !== 'https:') throw invalid(property, `String does not match pattern ^https://.*: ${value}`);
  if (url.username !== '' || url.password !== '') throw invalid(property, 'The endpoint may not carry credentials; use webhook_authorization');
  const host = url.hostname;
  try {
    if (host === 'localhost' || host.endsWith('.localhost')) checkLiteralHost('127.0.0.1', policy);
    else checkLiteralHost(host, policy);
  } catch (err) {
    throw invalid(property, `The destination ${host} is refused: ${(err as Error).message}`);
  }
  return value;
}

function subscriptions(given: readonly { event_type?: string }[]): string[] {
  const types: string[] = [];
  given.forEach((entry, i) => {
    if (entry.event_type === undefined) throw invalid(`subscriptions[${i}]`, 'Missing required property: event_type');
    if (!KNOWN_TYPES.has(entry.event_type)) throw invalid(`subscriptions[${i}].event_type`, `No enum match for: ${entry.event_type}`);
    if (!types.includes(entry.event_type)) types.push(entry.event_type);
  });
  return types;
}

/** The filter of a deliveries query or redelivery body. */
function deliveryFilter(given: { event_types?: readonly string[] | undefined; statuses?: readonly string[] | undefined; date_from?: string | undefined; date_to?: string | undefined }, refuse: (property: string, message: string) => Error): DeliveryFilter {
  for (const status of given.statuses ?? []) if (status !== 'failed') throw refuse('statuses', `No enum match for: ${status}`);
  for (const type of given.event_types ?? []) if (!KNOWN_TYPES.has(type)) throw refuse('event_types', `No enum match for: ${type}`);
  const filter: DeliveryFilter = {};
  if (given.event_types !== undefined && given.event_types.length > 0) filter.eventTypes = given.event_types;
  for (const [key, member] of [['date_from', 'from'], ['date_to', 'to']] as const) {
    const value = given[key];
    if (value === undefined) continue;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw refuse(key, `Object didn't pass validation for format date-time: ${value}`);
    filter[member] = isoAt(ms);
  }
  return filter;
}

const commaList = (value: string | undefined) => value?.split(',').map((v) => v.trim()).filter(Boolean);

export class EventStreamService {
  constructor(private readonly ctx: EventStreamServiceContext) {}

  async list(tenant: Tenant, query: { from?: string; take?: number }): Promise<CheckpointList<'eventStreams', EventStreamResponse>> {
    const scope = `${tenant.id}:event-streams`;
    const paging = checkpointPaging(this.ctx, query, scope);
    return checkpointPage(this.ctx, scope, 'eventStreams', paging, (window) => this.ctx.stores.eventStreams.list(tenant.id, window), (row) => row.id, toApi);
  }

  async get(tenant: Tenant, id: string): Promise<EventStreamResponse> {
    return toApi(await this.row(tenant, id));
  }

  async create(tenant: Tenant, body: CreateEventStreamBody): Promise<EventStreamResponse> {
    const { destination, secret } = webhookDestination(body.destination, this.ctx.config.outbound);
    const types = subscriptions(body.subscriptions ?? []);
    if ((await this.ctx.stores.eventStreams.count(tenant.id)) >= MAX_STREAMS) {
      throw managementErrors.conflict(`You have reached the maximum number of event streams for your tenant (${MAX_STREAMS}).`, 'entity_limit_exceeded');
    }
    const id = newEventStreamId();
    const now = isoAt(this.ctx.now());
    const row: EventStreamRow = {
      tenant_id: tenant.id,
      id,
      name: body.name ?? `webhook-${id.slice(4, 12)}`,
      status: body.status ?? 'enabled',
      subscriptions: types,
      destination,
      authorization_enc: this.ctx.box.seal(secret!, eventStreamSecretContext(tenant.id, id)),
      created_at: now,
      updated_at: now,
    };
    await this.ctx.stores.eventStreams.create(row);
    return toApi(row);
  }

  async update(tenant: Tenant, id: string, body: UpdateEventStreamBody): Promise<EventStreamResponse> {
    const current = await this.row(tenant, id);
    const changes: EventStreamChanges = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.status !== undefined) changes.status = body.status;
    if (body.subscriptions !== undefined) changes.subscriptions = subscriptions(body.subscriptions);
    if (body.destination !== undefined) {
      const { destination, secret } = webhookDestination(body.destination, this.ctx.config.outbound, current.destination);
      changes.destination = destination;
      if (secret !== undefined) changes.authorization_enc = this.ctx.box.seal(secret, eventStreamSecretContext(tenant.id, id));
    }
    const updated = await this.ctx.stores.eventStreams.update(tenant.id, id, changes, isoAt(this.ctx.now()));
    if (!updated) throw streamNotFound();
    return toApi(updated);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.eventStreams.delete(tenant.id, id))) throw streamNotFound();
  }

  async deliveries(tenant: Tenant, id: string, query: DeliveriesQuery): Promise<CheckpointList<'deliveries', DeliveryResponse>> {
    await this.row(tenant, id);
    const refuse = (property: string, message: string) => managementErrors.badRequest(`Query validation error: '${message}' on property ${property}.`, 'invalid_query_string');
    const filter = deliveryFilter({ statuses: commaList(query.statuses), event_types: commaList(query.event_types), date_from: query.date_from, date_to: query.date_to }, refuse);
    const scope = `${tenant.id}:event-deliveries:${id}`;
    const paging = checkpointPaging(this.ctx, query, scope);
    return checkpointPage(this.ctx, scope, 'deliveries', paging, (window) => this.ctx.stores.eventStreams.failures(tenant.id, id, filter, window), (row) => row.id, deliveryToApi);
  }

  async delivery(tenant: Tenant, id: string, eventId: string): Promise<DeliveryResponse> {
    await this.row(tenant, id);
    const row = await this.ctx.stores.eventStreams.delivery(tenant.id, id, eventId);
    if (!row) throw managementErrors.notFound('The event was not sent on this event stream.');
    return deliveryToApi(row);
  }

  async redeliver(tenant: Tenant, id: string, body: RedeliverBody): Promise<RedeliverBody> {
    await this.enabled(tenant, id);
    const filter = deliveryFilter(body, invalid);
    await this.ctx.stores.eventStreams.redeliver(tenant.id, id, filter, isoAt(this.ctx.now()));
    return body;
  }

  async redeliverOne(tenant: Tenant, id: string, eventId: string): Promise<void> {
    await this.enabled(tenant, id);
    if (!(await this.ctx.stores.eventStreams.redeliverOne(tenant.id, id, eventId, isoAt(this.ctx.now())))) {
      throw managementErrors.notFound('The event has no failed delivery on this event stream.');
    }
  }

  /** Queues a test event of the type for the stream alone (whatever it subscribes to), with `data` as its object. */
  async test(tenant: Tenant, id: string, body: TestEventBody): Promise<DeliveryResponse> {
    const stream = await this.row(tenant, id);
    const row = deliveryFor(stream, tenant, { id: newEventId(), type: body.event_type, object: body.data ?? {}, test: true }, this.ctx.now());
    await this.ctx.stores.eventStreams.enqueue([row]);
    return deliveryToApi(row);
  }

  private async enabled(tenant: Tenant, id: string): Promise<EventStreamRow> {
    const row = await this.row(tenant, id);
    if (row.status !== 'enabled') throw managementErrors.conflict('The event stream is disabled; enable it to redeliver its events.');
    return row;
  }

  private async row(tenant: Tenant, id: string): Promise<EventStreamRow> {
    const row = await this.ctx.stores.eventStreams.get(tenant.id, id);
    if (!row) throw streamNotFound();
    return row;
  }
}

function streamNotFound(): Error {
  return managementErrors.notFound('The event stream does not exist.', 'inexistent_event_stream');
}
