/**
 * TypeBox helpers that produce the plain JSON Schema shapes the service's
 * OpenAPI document uses (`enum`, `type: [x, "null"]`) rather than `anyOf`
 * unions, so validation errors name the property that failed.
 */
import { Type, type SchemaOptions, type TUnsafe } from '@sinclair/typebox';

export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

export function NullableStringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number] | null> {
  return Type.Unsafe<T[number] | null>({ ...options, type: ['string', 'null'], enum: [...values, null] });
}

/** An object whose members are not modelled here, or null. */
export function NullableFreeObject(options: SchemaOptions = {}): TUnsafe<Record<string, unknown> | null> {
  return Type.Unsafe<Record<string, unknown> | null>({ ...options, type: ['object', 'null'], additionalProperties: true });
}

export function FreeObject(options: SchemaOptions = {}): TUnsafe<Record<string, unknown>> {
  return Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object', additionalProperties: true });
}

export function NullableArray(options: SchemaOptions = {}): TUnsafe<unknown[] | null> {
  return Type.Unsafe<unknown[] | null>({ ...options, type: ['array', 'null'] });
}
