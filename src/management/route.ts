import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, HTTPMethods, RouteGenericInterface, RouteOptions } from 'fastify';
import { FORM_MEDIA_TYPE, requestMediaType } from '../platform/http/media-type.js';

/** A Management API operation: a Fastify route whose config names the scopes it accepts, with its schemas. */
export type ManagementRoute = RouteOptions & {
  config: {
    scopes: readonly string[];
    /**
     * Run when the server starts closing, before it waits for in-flight
     * requests: an operation whose responses stay open (GET /events) ends
     * them, so a graceful shutdown does not wait on them.
     */
    preClose?: () => void;
  };
  schema: ManagementSchema;
};

/**
 * One operation, built from its area's service and, for the few operations
 * that use it directly, the part `C` of the context they declare.
 */
export type ManagementRouteFactory<S, C = unknown> = (ctx: C, service: S) => ManagementRoute;

/**
 * The schemas of an operation, all TypeBox, so that the types of the request
 * parts and of the reply derive from the schemas that validate and serialise
 * them (STYLE 5). `response` is required and names every success status the
 * operation sends: a member its schema does not declare is never sent.
 * Errors need none, they go through the one error handler.
 */
export interface ManagementSchema {
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  consumes?: readonly string[];
  response: { [status: number]: TSchema };
}

type StaticOf<T> = T extends TSchema ? Static<T> : unknown;

/** The type of each success status's body, by status (Fastify checks `reply.code(N).send(body)` against the N). */
type RepliesOf<S extends ManagementSchema> = { [K in keyof S['response']]: StaticOf<S['response'][K]> };

/** What the reply may carry: any of the response schemas' types. */
export type ReplyOf<S extends ManagementSchema> = RepliesOf<S>[keyof S['response']];

/**
 * Fastify's route generic, filled from the schemas (what
 * @fastify/type-provider-typebox does, which is not a dependency): Fastify
 * validates params, querystring and body against these very schemas
 * (src/platform/http/validation.ts) before the handler runs, so the handler
 * receives them typed and never casts them.
 */
export interface RouteTypes<S extends ManagementSchema> extends RouteGenericInterface {
  Params: StaticOf<S['params']>;
  Querystring: StaticOf<S['querystring']>;
  Body: StaticOf<S['body']>;
  Reply: RepliesOf<S>;
}

export type ManagementRequest<S extends ManagementSchema> = FastifyRequest<RouteTypes<S>>;
export type ManagementReply<S extends ManagementSchema> = FastifyReply<RouteTypes<S>>;

/** Hooks that run before validation see the raw, unvalidated request. */
type UnvalidatedHook = (request: FastifyRequest) => Promise<void>;

export interface ManagementRouteDefinition<S extends ManagementSchema> {
  method: HTTPMethods;
  url: string;
  config: ManagementRoute['config'] & Omit<NonNullable<RouteOptions['config']>, 'scopes'>;
  schema: S;
  onRequest?: UnvalidatedHook;
  preValidation?: UnvalidatedHook;
  /** Returns the body of the route's one success status, or the reply it sent itself. */
  handler: (request: ManagementRequest<S>, reply: ManagementReply<S>) => Promise<ReplyOf<S> | ManagementReply<S>>;
}

/**
 * A Management API route whose handler gets typed request parts. The one
 * conversion to Fastify's route table, whose handlers take untyped requests,
 * is here: sound because Fastify validates each part against the schema it
 * was typed from before calling the handler.
 */
export function managementRoute<const S extends ManagementSchema>(definition: ManagementRouteDefinition<S>): ManagementRoute {
  return definition as unknown as ManagementRoute;
}

/**
 * Sends `body` serialised with `schema` instead of the route's declared
 * response schema, for a response whose shape is chosen per request (the
 * client fields a token may read, the shape of a list page): what `schema`
 * does not declare is not sent. `schema` narrows a declared one, which still
 * types `body` and documents the operation. Serialised here, in the handler,
 * so that an error on the way is answered by the error handler like any
 * other; Fastify compiles each schema once per route.
 */
export function sendSerialized<S extends ManagementSchema>(reply: ManagementReply<S>, schema: TSchema, body: ReplyOf<S>): ManagementReply<S> {
  // The body is typed by the route's declared schema; what goes out is the string `schema` makes of it.
  const raw: FastifyReply = reply;
  const serialize = raw.compileSerializationSchema(schema);
  // Fastify types the payload as an object with string keys; its serializers take arrays as well.
  raw.type('application/json; charset=utf-8').send(serialize(body as Record<string, unknown>));
  return reply;
}

/**
 * 204 No Content. `type: "null"` is how Fastify's documentation writes an
 * empty response, and @fastify/swagger documents it with no content; the
 * handler sends nothing, hence the `undefined` type.
 */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'No Content' });

/** `application/json` and form bodies, as the service's body-carrying operations accept. */
export const BODY_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** A parsed body or query that is a plain object (before validation, anything may arrive). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * preValidation of form bodies whose `member` is a list of ids: `a=x&a=y`
 * parses to an array but a lone `a=x` to a string; it means a one-item array.
 * JSON bodies are left alone, so `{"a":"x"}` is still refused as not an array.
 */
export function formListAsArray(member: string): UnvalidatedHook {
  return async (request) => {
    if (requestMediaType(request) !== FORM_MEDIA_TYPE) return;
    const body = request.body;
    if (isRecord(body) && typeof body[member] === 'string') body[member] = [body[member]];
  };
}
