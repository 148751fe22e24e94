/**
 * What /Users and /Groups share of a request: a PatchOp message's shape
 * (RFC 7644 §3.5.2: `schemas`, 1 to 100 `Operations`, each `op` add, replace
 * or remove, Entra ID's capitalised forms taken, an optional `path`) and the
 * paging integers of a list.
 */
import type { JsonObject } from '../../domain/json.js';
import { member } from '../../domain/scim/mapping.js';
import { scimErrors } from './errors.js';

const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const MAX_PATCH_OPERATIONS = 100;

export interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `startIndex` or `count`: an integer, or undefined when absent (400 invalidValue otherwise). */
export function integer(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d{1,9}$/.test(value)) throw scimErrors.invalidValue(`${name} must be an integer`);
  return Number(value);
}

/** A PatchOp message's operations, `op` lower-cased; what each path may name is the resource's to check. */
export function checkedPatchOperations(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw scimErrors.invalidSyntax('The body must be a SCIM PatchOp message');
  const schemas = member(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_OP_SCHEMA)) throw scimErrors.invalidSyntax(`schemas must include ${PATCH_OP_SCHEMA}`);
  const operations = member(body, 'Operations');
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > MAX_PATCH_OPERATIONS) {
    throw scimErrors.invalidSyntax(`Operations must hold 1 to ${MAX_PATCH_OPERATIONS} operations`);
  }
  return operations.map((operation) => {
    if (!isObject(operation)) throw scimErrors.invalidSyntax('Each operation is an object');
    const op = member(operation, 'op');
    if (typeof op !== 'string' || !['add', 'replace', 'remove'].includes(op.toLowerCase())) throw scimErrors.invalidSyntax('op must be add, replace or remove');
    const path = member(operation, 'path');
    if (path !== undefined && (typeof path !== 'string' || path.length > 300)) throw scimErrors.invalidPath('path must be a string of at most 300 characters');
    return { op: op.toLowerCase() as PatchOperation['op'], ...(path !== undefined && { path }), ...('value' in operation && { value: operation.value }) };
  });
}
