/**
 * The service's user import format (a JSON array of users, "Bulk user import
 * database schema and examples"): reading the file with each user's line, and
 * turning one user into a users row or the job errors that say why not.
 *
 * Each user is checked against the format's schema (Ajv; error codes in the
 * service's z-schema names: INVALID_TYPE, INVALID_FORMAT,
 * OBJECT_MISSING_REQUIRED_PROPERTY, OBJECT_ADDITIONAL_PROPERTIES, MIN_LENGTH,
 * MAX_LENGTH), then its hash (src/platform/passwords/imported-hashes.ts).
 * A failing user is never written: it becomes a job error, the others go on.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ImportedHashError, storedHashOf, BCRYPT_HASH, type CustomPasswordHash } from '../../platform/passwords/imported-hashes.js';
import { fullUserId, type UserRow } from '../users/model.js';
import { baseUserRow } from '../users/new-user.js';

export interface ImportError {
  code: string;
  message: string;
  path: string;
}

/** One user of the file, with the line its object starts on (from 1). */
export interface ImportItem {
  value: unknown;
  line: number;
}

export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The users of an import file: a JSON array, each element with the line it
 * starts on. ImportFileError (with the line and column) when the file is not
 * JSON, not an array, empty, or holds more than `maxUsers`.
 */
export function readUsersFile(text: string, maxUsers: number): ImportItem[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 200);
    const line = failingElementLine(text);
    throw new ImportFileError(`Users file must be valid JSON: ${message}${line === undefined ? '' : ` (the user at line ${line})`}`);
  }
  if (!Array.isArray(parsed)) throw new ImportFileError('Users file must be a JSON array of users');
  if (parsed.length === 0) throw new ImportFileError('Users file must contain at least one user');
  if (parsed.length > maxUsers) throw new ImportFileError(`Users file must contain at most ${maxUsers} users`);
  // Lines counted in one pass over the file for all users.
  const starts = elementOffsets(text);
  const items: ImportItem[] = [];
  let line = 1;
  let at = 0;
  for (let i = 0; i < parsed.length; i++) {
    const start = starts[i] ?? at;
    for (; at < start; at++) if (text.charCodeAt(at) === 10) line++;
    items.push({ value: parsed[i], line });
  }
  return items;
}

/**
 * The line of the first element of the top-level array that is not JSON by
 * itself (the file as a whole is not JSON, and this engine's message may not
 * say where); undefined when every element is (the array itself is broken).
 */
function failingElementLine(text: string): number | undefined {
  const starts = elementOffsets(text);
  for (let i = 0; i < starts.length; i++) {
    const end = i + 1 < starts.length ? starts[i + 1]! : text.lastIndexOf(']');
    const element = text.slice(starts[i]!, end > starts[i]! ? end : undefined).trim().replace(/,$/, '');
    try {
      JSON.parse(element);
    } catch {
      return lineAt(text, starts[i]!);
    }
  }
  return undefined;
}

/** Where each element of the top-level array starts (the text is valid JSON: only strings and nesting need tracking). */
function elementOffsets(text: string): number[] {
  const offsets: number[] = [];
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (depth === 1 && expectValue && c !== ']') {
      offsets.push(i);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return offsets;
}

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength });
const metadata = { type: 'object' };

/** The format's schema, as its documentation lists the members. */
const USER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: {
    email: { type: 'string', format: 'email', maxLength: 512 },
    email_verified: { type: 'boolean' },
    user_id: { type: 'string', minLength: 1, maxLength: 255, pattern: '^\\S+$' },
    username: { type: 'string', minLength: 1, maxLength: 128 },
    given_name: text(150),
    family_name: text(150),
    name: text(300),
    nickname: text(300),
    picture: { type: 'string', format: 'uri', maxLength: 2048 },
    blocked: { type: 'boolean' },
    app_metadata: metadata,
    user_metadata: metadata,
    password_hash: { type: 'string', maxLength: 512 },
    custom_password_hash: { type: 'object' },
    /** Accepted and not kept (see the README). */
    password_set_date: { type: 'string', format: 'date-time' },
    mfa_factors: { type: 'array', maxItems: 10 },
  },
} as const;

/** The user schema's validator, compiled with the first import job rather than at start-up. */
let userValidator: ValidateFunction | undefined;
function validateUser(value: unknown): ErrorObject[] | undefined {
  if (!userValidator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    // ajv-formats is a CommonJS module whose default export is the plugin (as in platform/http/validation.ts).
    (addFormats as unknown as (a: Ajv) => Ajv)(ajv);
    userValidator = ajv.compile(USER_SCHEMA);
  }
  return userValidator(value) ? undefined : (userValidator.errors ?? []);
}

const CODES: Record<string, string> = {
  type: 'INVALID_TYPE',
  format: 'INVALID_FORMAT',
  required: 'OBJECT_MISSING_REQUIRED_PROPERTY',
  additionalProperties: 'OBJECT_ADDITIONAL_PROPERTIES',
  minLength: 'MIN_LENGTH',
  maxLength: 'MAX_LENGTH',
  pattern: 'PATTERN',
  maxItems: 'ARRAY_LENGTH_LONG',
};

function schemaError(error: ErrorObject): ImportError {
  const params = error.params as Record<string, unknown>;
  const property =
    error.keyword === 'required' ? String(params.missingProperty) : error.keyword === 'additionalProperties' ? String(params.additionalProperty) : error.instancePath.slice(1).replace(/\//g, '.');
  const detail =
    error.keyword === 'required'
      ? `Missing required property: ${property}`
      : error.keyword === 'additionalProperties'
        ? `Additional properties not allowed: ${property}`
        : `Error in ${property} property - ${error.message ?? 'invalid'}`;
  return { code: CODES[error.keyword] ?? 'INVALID_FORMAT', message: detail, path: property };
}

/** The user as the errors show it: hashes left out, never sent back. */
export function userForErrors(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const { password_hash: _hash, custom_password_hash: _custom, ...rest } = value as Record<string, unknown>;
  return rest;
}

export interface ImportUser {
  /** The row to insert for a new user. */
  row: UserRow;
  /** What an upsert changes on an existing user: the members the file gave. */
  given: Partial<UserRow>;
}

/**
 * One user of the file as a new row (a fresh id unless the file gives one),
 * or its errors.
 */
export function importUser(value: unknown, tenantId: string, connectionId: string, now: string): ImportUser | { errors: ImportError[] } {
  const invalid = validateUser(value);
  if (invalid) return { errors: invalid.map(schemaError) };
  const user = value as Record<string, unknown> & { email: string };
  let passwordHash: string | null = null;
  if (user.password_hash !== undefined && user.custom_password_hash !== undefined) {
    return { errors: [{ code: 'CONFLICTING_PROPERTIES', message: 'password_hash and custom_password_hash cannot both be given', path: 'password_hash' }] };
  }
  if (typeof user.password_hash === 'string') {
    if (!BCRYPT_HASH.test(user.password_hash)) return { errors: [{ code: 'INVALID_FORMAT', message: 'Error in password_hash property - must be a bcrypt hash ($2a$, $2b$ or $2y$)', path: 'password_hash' }] };
    passwordHash = user.password_hash;
  }
  if (user.custom_password_hash !== undefined) {
    try {
      passwordHash = storedHashOf(user.custom_password_hash as CustomPasswordHash);
    } catch (error) {
      if (!(error instanceof ImportedHashError)) throw error;
      return { errors: [{ code: 'INVALID_FORMAT', message: `Error in custom_password_hash property - ${error.message}`, path: 'custom_password_hash' }] };
    }
  }
  const str = (key: string) => (typeof user[key] === 'string' ? (user[key] as string) : undefined);
  const given: Partial<UserRow> = { email: user.email, email_lower: user.email.toLowerCase() };
  if (typeof user.email_verified === 'boolean') given.email_verified = user.email_verified ? 1 : 0;
  if (typeof user.blocked === 'boolean') given.blocked = user.blocked ? 1 : 0;
  const username = str('username');
  if (username !== undefined) {
    given.username = username;
    given.username_lower = username.toLowerCase();
  }
  for (const key of ['given_name', 'family_name', 'name', 'nickname', 'picture'] as const) {
    const v = str(key);
    if (v !== undefined) given[key] = v;
  }
  for (const key of ['app_metadata', 'user_metadata'] as const) {
    if (user[key] !== undefined) given[key] = user[key] as Record<string, unknown>;
  }
  if (passwordHash !== null) given.password_hash = passwordHash;
  const idPart = str('user_id');
  const base = baseUserRow(tenantId, connectionId, user.email, now);
  const row: UserRow = { ...base, ...(idPart !== undefined && { user_id: fullUserId(idPart) }), ...given };
  return { row, given };
}
