/**
 * Schemas of log streams in the Management API, from the service's OpenAPI
 * document (`CreateLogStreamHttpRequestBody`, `UpdateLogStreamRequestContent`,
 * `LogStreamHttpResponseSchema`). Every type of the document is recognised
 * in `type`, so that the ones Gatehouse lacks are refused by name
 * (./service.ts); the sink is checked there, for `http`. The sink's
 * `httpAuthorization` is never in a response.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

export const LOG_STREAM_TYPES = ['http', 'eventbridge', 'eventgrid', 'datadog', 'splunk', 'sumo', 'segment', 'mixpanel'] as const;
export const FILTER_CATEGORIES = [
  'auth.login.fail', 'auth.login.notification', 'auth.login.success', 'auth.logout.fail', 'auth.logout.success', 'auth.signup.fail',
  'auth.signup.success', 'auth.silent_auth.fail', 'auth.silent_auth.success', 'auth.token_exchange.fail', 'auth.token_exchange.success',
  'management.fail', 'management.success', 'scim.event', 'system.notification', 'user.fail', 'user.notification', 'user.success', 'actions', 'other',
] as const;
const STATUSES = ['active', 'paused', 'suspended'] as const;
const FORMATS = ['JSONARRAY', 'JSONLINES', 'JSONOBJECT'] as const;

const Filters = Type.Array(
  Type.Object(
    {
      type: Type.Literal('category', { description: 'Filter type. Currently `category` is the only valid type.' }),
      name: Type.Union(FILTER_CATEGORIES.map((c) => Type.Literal(c)), { description: 'Category group name' }),
    },
    { additionalProperties: false },
  ),
  { maxItems: FILTER_CATEGORIES.length, description: 'Only logs events matching these filters will be delivered by the stream. If omitted or empty, all events will be delivered.' },
);

const Name = Type.String({ minLength: 1, maxLength: 128, pattern: NO_CONTROL_CHARACTERS, description: 'log stream name' });

/** The members an `http` sink takes, checked by the service once the type is known. */
export const HttpSinkBody = Type.Object(
  {
    httpEndpoint: Type.String({ minLength: 9, maxLength: 2048, pattern: '^https://', description: 'HTTP endpoint' }),
    httpContentType: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: NO_CONTROL_CHARACTERS, description: 'HTTP Content-Type header' })),
    httpContentFormat: Type.Optional(Type.Union(FORMATS.map((f) => Type.Literal(f)), { description: 'HTTP JSON format' })),
    httpAuthorization: Type.Optional(Type.String({ maxLength: 4096, pattern: NO_CONTROL_CHARACTERS, description: 'HTTP Authorization header' })),
  },
  { additionalProperties: false },
);
export type HttpSinkBody = Static<typeof HttpSinkBody>;

export const CreateLogStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    type: Type.Union(LOG_STREAM_TYPES.map((t) => Type.Literal(t))),
    isPriority: Type.Optional(Type.Boolean()),
    filters: Type.Optional(Filters),
    sink: Type.Object({}, { additionalProperties: true }),
    startFrom: Type.Optional(Type.String({ maxLength: 40, description: 'The optional datetime (ISO 8601) to start streaming logs from' })),
  },
  { additionalProperties: false },
);
export type CreateLogStreamBody = Static<typeof CreateLogStreamBody>;

export const UpdateLogStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
    isPriority: Type.Optional(Type.Boolean()),
    filters: Type.Optional(Filters),
    sink: Type.Optional(Type.Partial(HttpSinkBody, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type UpdateLogStreamBody = Static<typeof UpdateLogStreamBody>;

export const LogStreamResponse = Type.Object(
  {
    id: Type.String({ description: 'The id of the log stream' }),
    name: Type.String(),
    status: Type.String(),
    type: Type.String(),
    isPriority: Type.Boolean(),
    filters: Type.Optional(Type.Array(Type.Object({ type: Type.String(), name: Type.String() }, { additionalProperties: false }))),
    sink: Type.Object(
      { httpEndpoint: Type.String(), httpContentType: Type.Optional(Type.String()), httpContentFormat: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type LogStreamResponse = Static<typeof LogStreamResponse>;

export const LogStreamParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'The id of the log stream' }) });
