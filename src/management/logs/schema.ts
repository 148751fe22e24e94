/**
 * Schemas of tenant logs in the Management API, from the service's OpenAPI
 * document (`Log`, `ListLogOffsetPaginatedResponseContent`): the members
 * Gatehouse records. A member with no value is left out, as the service does.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FieldsQuery } from '../fields.js';
import { OffsetPagingQuery } from '../paging.js';

const text = (description: string) => Type.Optional(Type.String({ description }));

export const LogResponse = Type.Object(
  {
    date: text('Date when the event occurred in ISO 8601 format.'),
    type: text('Type of event.'),
    description: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Description of this event.' })),
    connection: text('Name of the connection the event relates to.'),
    connection_id: text('ID of the connection the event relates to.'),
    client_id: text('ID of the client (application).'),
    client_name: text('Name of the client (application).'),
    ip: text('IP address of the log event source.'),
    hostname: text('Hostname the event applies to.'),
    user_id: text('ID of the user involved in the event.'),
    user_name: text('Name of the user involved in the event.'),
    audience: text('API audience the event applies to.'),
    scope: text('Scope permissions applied to the event.'),
    strategy: text('Name of the strategy involved in the event.'),
    strategy_type: text('Type of strategy involved in the event.'),
    log_id: text('Unique ID of the event.'),
    details: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Additional useful details about this event (structure is dependent upon event type).' })),
    user_agent: text('User agent string from the client device that caused the event.'),
  },
  { additionalProperties: false },
);
export type LogResponse = Static<typeof LogResponse>;

/** 200 of a log list: an array, or the offset page with totals (`start`, `limit`, `length`, `total`, `logs`). */
export const LogListResponse = Type.Union([
  Type.Array(LogResponse),
  Type.Object(
    { start: Type.Number(), limit: Type.Number(), length: Type.Number(), total: Type.Number(), logs: Type.Array(LogResponse) },
    { additionalProperties: false },
  ),
]);
export type LogListResponse = Static<typeof LogListResponse>;

export const SORT = Type.String({ maxLength: 32, description: 'Field to use for sorting appended with :1 for ascending and :-1 for descending. e.g. date:-1' });

export const LogListQuery = Type.Object(
  {
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    sort: Type.Optional(SORT),
    ...FieldsQuery,
    from: Type.Optional(Type.String({ maxLength: 64, description: 'Log Event Id from which to start selection from.' })),
    take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Number of entries to retrieve when using the from parameter. Default 50, max 100' })),
    q: Type.Optional(Type.String({ maxLength: 1024, description: 'Query in Lucene query string syntax.' })),
    search: Type.Optional(Type.String({ maxLength: 1024, description: 'Retrieves logs that match the specified search criteria (the older name of q).' })),
  },
  { additionalProperties: true },
);
export type LogListQuery = Static<typeof LogListQuery>;

export const UserLogListQuery = Type.Object(
  {
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    sort: Type.Optional(SORT),
  },
  { additionalProperties: true },
);
export type UserLogListQuery = Static<typeof UserLogListQuery>;

export const LogIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'log_id of the log to retrieve.' }) });
