/**
 * Schemas of event streams in the Management API, from the service's OpenAPI
 * document (`CreateEventStreamWebHookRequestContent`,
 * `UpdateEventStreamRequestContent`, `EventStreamWebhookResponseContent`,
 * `EventStreamDelivery`, `CreateEventStreamRedeliveryRequestContent`,
 * `CreateEventStreamTestEventRequestContent`).
 *
 * Where Gatehouse departs from the document, and why:
 * - The document's `webhook_authorization` names the method and the
 *   username or header name only (it is the response's shape, reused for the
 *   request); the service's documentation has the secret sent with it
 *   (`token` for bearer, `password` for basic, `header_value` for a custom
 *   header). Gatehouse takes those write-only members, seals them, and never
 *   returns them.
 * - `destination.type` is checked by the service (./service.ts) once the
 *   body is valid: `webhook` is served, `eventbridge` and `action` are
 *   refused by name.
 * - Where the document and the `auth0` SDK (latest, generated from the
 *   service's newer definition) disagree, Gatehouse answers as the SDK reads:
 *   the deliveries list is `{deliveries, next?}` (the document: a bare
 *   array; the SDK pages through `deliveries` and `next`), and a delivery's
 *   `event.data` is the event's data object (the document: a string).
 */
import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/event-streams/events.js';
import { FreeObject } from '../../platform/http/schema-types.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const EventType = (description: string) => Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)), { description });
const Name = Type.String({ minLength: 1, maxLength: 128, pattern: NO_CONTROL_CHARACTERS, description: 'Name of the event stream.' });
const Status = Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], { description: 'Indicates whether the event stream is actively forwarding events.' });
const Subscriptions = (minItems: number | undefined) =>
  Type.Array(Type.Object({ event_type: Type.String({ maxLength: 64, pattern: NO_CONTROL_CHARACTERS }) }, { additionalProperties: false, description: 'Event types' }), {
    ...(minItems !== undefined && { minItems }),
    maxItems: EVENT_TYPES.length,
    description: 'List of event types subscribed to in this stream.',
  });

const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 4096, pattern: NO_CONTROL_CHARACTERS, description });

/** The webhook's authorization as a request gives it (the secret included). */
export const WebhookAuthorizationBody = Type.Union([
  Type.Object(
    {
      method: Type.Literal('basic', { description: 'Type of authorization.' }),
      username: Type.String({ minLength: 1, maxLength: 128, pattern: '^[^:\\u0000-\\u001F\\u007F]+$', description: 'Username' }),
      password: Type.Optional(Secret('Password (write-only; required on create, kept when left out of an update)')),
    },
    { additionalProperties: false },
  ),
  Type.Object({ method: Type.Literal('bearer', { description: 'Type of authorization.' }), token: Type.Optional(Secret('Bearer token (write-only; required on create, kept when left out of an update)')) }, { additionalProperties: false }),
  Type.Object(
    {
      method: Type.Literal('custom_header', { description: 'Type of authorization.' }),
      header_key: Type.String({ minLength: 1, maxLength: 128, pattern: "^[a-zA-Z0-9!#$%&'*+.^_`|~-]+$", description: 'HTTP header name.' }),
      header_value: Type.Optional(Secret('HTTP header value (write-only; required on create, kept when left out of an update)')),
    },
    { additionalProperties: false },
  ),
]);
export type WebhookAuthorizationBody = Static<typeof WebhookAuthorizationBody>;

/** A webhook destination's configuration as a request gives it; checked by the service once the type is known. */
export const WebhookConfigurationBody = Type.Object(
  {
    webhook_endpoint: Type.String({ minLength: 9, maxLength: 2048, pattern: '^https://', description: 'Target HTTP endpoint URL.' }),
    webhook_authorization: WebhookAuthorizationBody,
  },
  { additionalProperties: false },
);
export type WebhookConfigurationBody = Static<typeof WebhookConfigurationBody>;

const DestinationBody = Type.Object(
  {
    type: Type.Union([Type.Literal('webhook'), Type.Literal('eventbridge'), Type.Literal('action')]),
    configuration: FreeObject({ description: 'Configuration specific to the destination.' }, 8192),
  },
  { additionalProperties: false },
);
export type DestinationBody = Static<typeof DestinationBody>;

export const CreateEventStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    subscriptions: Type.Optional(Subscriptions(1)),
    destination: DestinationBody,
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);
export type CreateEventStreamBody = Static<typeof CreateEventStreamBody>;

export const UpdateEventStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    subscriptions: Type.Optional(Subscriptions(undefined)),
    destination: Type.Optional(DestinationBody),
    status: Type.Optional(Status),
  },
  { additionalProperties: false },
);
export type UpdateEventStreamBody = Static<typeof UpdateEventStreamBody>;

const WebhookAuthorizationResponse = Type.Object(
  { method: Type.String(), username: Type.Optional(Type.String()), header_key: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const EventStreamResponse = Type.Object(
  {
    id: Type.String({ description: 'Unique identifier for the event stream.' }),
    name: Type.String(),
    subscriptions: Type.Array(Type.Object({ event_type: Type.String() }, { additionalProperties: false })),
    destination: Type.Object(
      {
        type: Type.Literal('webhook'),
        configuration: Type.Object({ webhook_endpoint: Type.String(), webhook_authorization: WebhookAuthorizationResponse }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    status: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type EventStreamResponse = Static<typeof EventStreamResponse>;

export const EventStreamListResponse = Type.Object({ eventStreams: Type.Array(EventStreamResponse), next: Type.Optional(Type.String()) }, { additionalProperties: false });

const StreamId = Type.String({ format: 'event-stream-id', description: 'Unique identifier for the event stream.' });
const EventId = Type.String({ format: 'event-id', description: 'Unique identifier for the event' });
export const EventStreamParams = Type.Object({ id: StreamId });
export const EventParams = Type.Object({ id: StreamId, event_id: EventId });

export const EventStreamListQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 1024, description: 'Optional Id from which to start selection.' })),
    take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Number of results per page. Defaults to 50.' })),
  },
  { additionalProperties: false },
);

/** RFC 3339 without sub-second precision, as the document's `date_from`/`date_to`. */
const DateBound = (description: string) => Type.String({ maxLength: 20, pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$', description });

export const DeliveriesQuery = Type.Object(
  {
    statuses: Type.Optional(Type.String({ maxLength: 256, description: 'Comma-separated list of statuses by which to filter' })),
    event_types: Type.Optional(Type.String({ maxLength: 1024, description: 'Comma-separated list of event types by which to filter' })),
    date_from: Type.Optional(DateBound('An RFC-3339 date-time for redelivery start, inclusive. Does not allow sub-second precision.')),
    date_to: Type.Optional(DateBound('An RFC-3339 date-time for redelivery end, exclusive. Does not allow sub-second precision.')),
    from: Type.Optional(Type.String({ maxLength: 1024, description: 'Optional Id from which to start selection.' })),
    take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Number of results per page. Defaults to 50.' })),
  },
  { additionalProperties: false },
);
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

const DeliveryStatus = Type.String({ description: 'Delivery status' });

export const DeliveryResponse = Type.Object(
  {
    id: Type.String({ description: 'Unique identifier for the delivery' }),
    event_stream_id: Type.String(),
    status: DeliveryStatus,
    event_type: Type.String(),
    attempts: Type.Array(
      Type.Object({ status: Type.String(), timestamp: Type.String({ format: 'date-time' }), error_message: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
    event: Type.Optional(
      Type.Object(
        { id: Type.String(), source: Type.String(), specversion: Type.String(), type: Type.String(), time: Type.String(), data: FreeObject({ description: 'The event\'s data.' }, null) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type DeliveryResponse = Static<typeof DeliveryResponse>;

export const DeliveriesResponse = Type.Object({ deliveries: Type.Array(DeliveryResponse), next: Type.Optional(Type.String()) }, { additionalProperties: false });

export const RedeliverBody = Type.Object(
  {
    date_from: Type.Optional(DateBound('An RFC-3339 date-time for redelivery start, inclusive. Does not allow sub-second precision.')),
    date_to: Type.Optional(DateBound('An RFC-3339 date-time for redelivery end, exclusive. Does not allow sub-second precision.')),
    statuses: Type.Optional(Type.Array(Type.Literal('failed', { description: 'Delivery status' }), { maxItems: 1, description: 'Filter by status' })),
    event_types: Type.Optional(Type.Array(EventType('Filter by event type'), { maxItems: EVENT_TYPES.length, description: 'Filter by event type' })),
  },
  { additionalProperties: false },
);
export type RedeliverBody = Static<typeof RedeliverBody>;

export const RedeliverResponse = Type.Object(
  {
    date_from: Type.Optional(Type.String()),
    date_to: Type.Optional(Type.String()),
    statuses: Type.Optional(Type.Array(Type.String())),
    event_types: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

export const TestEventBody = Type.Object(
  {
    event_type: EventType('The type of event this test event represents.'),
    data: Type.Optional(FreeObject({ description: 'The raw payload of the test event.' }, 16_384)),
  },
  { additionalProperties: false },
);
export type TestEventBody = Static<typeof TestEventBody>;
