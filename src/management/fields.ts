/**
 * `fields` / `include_fields` of the list operations that offer them (groups,
 * a user's groups, a group's members, users by email): which members of each
 * item are returned. Empty `fields` returns every member.
 */
import { Type } from '@sinclair/typebox';

export interface FieldSelection {
  fields: ReadonlySet<string>;
  /** true: only the named members; false: all but the named members. */
  include: boolean;
}

/** The two query parameters, as the service's document declares them. */
export const FieldsQuery = {
  fields: Type.Optional(
    Type.String({
      maxLength: 256,
      description:
        'A comma separated list of fields to include or exclude (depending on include_fields) from the result, empty to retrieve all fields',
    }),
  ),
  include_fields: Type.Optional(Type.Boolean({ description: 'Whether specified fields are to be included (true) or excluded (false)' })),
};

export function fieldSelection(query: { fields?: string; include_fields?: boolean }): FieldSelection {
  const fields = (query.fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return { fields: new Set(fields), include: query.include_fields !== false };
}

export function selectFields<T extends object>(item: T, selection: FieldSelection | undefined): Partial<T> {
  if (!selection || selection.fields.size === 0) return item;
  return Object.fromEntries(Object.entries(item).filter(([key]) => selection.fields.has(key) === selection.include)) as Partial<T>;
}
