/**
 * TypeBox helpers that produce the plain JSON Schema shapes the service's
 * OpenAPI document uses (`enum`, `type: [x, "null"]`) rather than `anyOf`
 * unions, so validation errors name the property that failed.
 */
import { Type, type SchemaOptions, type TUnsafe } from '@sinclair/typebox';
import { MAX_JSON_BYTES_KEYWORD } from './validation.js';

/**
 * The size, serialised, a free-form object may take where the service states
 * no limit of its own: 64 KiB, far above any configuration object the service
 * documents, and small enough that a list of a hundred of them stays small.
 */
export const FREE_OBJECT_MAX_BYTES = 65_536;

/** The keyword bounding an object's serialised size (see ./validation.ts); null leaves it to the body limit. */
export function maxJsonBytes(limit: number | null): Record<string, number> {
  return limit === null ? {} : { [MAX_JSON_BYTES_KEYWORD]: limit };
}

export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

export function NullableStringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number] | null> {
  return Type.Unsafe<T[number] | null>({ ...options, type: ['string', 'null'], enum: [...values, null] });
}

/** An object whose members are not modelled here, or null; at most `maxBytes` serialised. */
export function NullableFreeObject(options: SchemaOptions = {}, maxBytes: number | null = FREE_OBJECT_MAX_BYTES): TUnsafe<Record<string, unknown> | null> {
  return Type.Unsafe<Record<string, unknown> | null>({ ...options, type: ['object', 'null'], additionalProperties: true, ...maxJsonBytes(maxBytes) });
}

/** An object whose members are not modelled here; at most `maxBytes` serialised. */
export function FreeObject(options: SchemaOptions = {}, maxBytes: number | null = FREE_OBJECT_MAX_BYTES): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object', additionalProperties: true, ...maxJsonBytes(maxBytes) });
}

export function NullableArray(options: SchemaOptions = {}): TUnsafe<unknown[] | null> {
  return Type.Unsafe<unknown[] | null>({ ...options, type: ['array', 'null'] });
}
