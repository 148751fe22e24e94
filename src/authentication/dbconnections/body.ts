/**
 * Request bodies of /dbconnections/*: a JSON object (forms are read too) with
 * string members, checked here so refusals come in the endpoints' own error
 * shape. Unknown members are refused rather than dropped (STYLE §6), except
 * those SDKs are known to send and Gatehouse ignores (auth0.js's `captcha`).
 */
import type { FastifyRequest } from 'fastify';
import { dbConnectionsErrors } from './errors.js';
import type { ChangePasswordInput, SignupInput } from './service.js';

const IGNORED = new Set(['captcha']);

function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw dbConnectionsErrors.invalid('The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function checkMembers(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key) && !IGNORED.has(key)) throw dbConnectionsErrors.invalid(`Unknown parameter: ${key}`);
  }
}

function optionalString(body: Record<string, unknown>, name: string, max = 300): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw dbConnectionsErrors.invalid(`Parameter ${name} must be a string`);
  if (value.length > max) throw dbConnectionsErrors.invalid(`Parameter ${name} is too long (maximum ${max} characters)`);
  return value;
}

function requiredString(body: Record<string, unknown>, name: string, max?: number): string {
  const value = optionalString(body, name, max);
  if (!value) throw dbConnectionsErrors.missing(name);
  return value;
}

/** A deliberately loose address check: one `@` with text either side, no whitespace, at most 320 characters. */
export function looksLikeEmail(value: string): boolean {
  return value.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(value);
}

function email(body: Record<string, unknown>): string {
  const value = requiredString(body, 'email', 320);
  if (!looksLikeEmail(value)) throw dbConnectionsErrors.invalid('Parameter email must be an email address');
  return value;
}

/** REF:signup: at most 10 properties, names up to 100 characters, string values up to 500. */
function userMetadata(body: Record<string, unknown>): Record<string, string> | undefined {
  const value = body.user_metadata;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw dbConnectionsErrors.invalid('Parameter user_metadata must be an object');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 10) throw dbConnectionsErrors.invalid('user_metadata may have at most 10 properties');
  for (const [key, member] of entries) {
    if (key.length > 100) throw dbConnectionsErrors.invalid('user_metadata property names may have at most 100 characters');
    if (typeof member !== 'string') throw dbConnectionsErrors.invalid('user_metadata values must be strings');
    if (member.length > 500) throw dbConnectionsErrors.invalid('user_metadata values may have at most 500 characters');
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

const SIGNUP_MEMBERS = ['client_id', 'connection', 'email', 'password', 'username', 'given_name', 'family_name', 'name', 'nickname', 'picture', 'user_metadata'];

export function readSignupBody(request: FastifyRequest): SignupInput {
  const body = objectBody(request);
  checkMembers(body, SIGNUP_MEMBERS);
  const input: SignupInput = {
    client_id: requiredString(body, 'client_id'),
    connection: requiredString(body, 'connection'),
    email: email(body),
    // argon2 has no length limit, but a bound keeps hashing cost predictable.
    password: requiredString(body, 'password', 1024),
  };
  for (const key of ['username', 'given_name', 'family_name', 'name', 'nickname'] as const) {
    const value = optionalString(body, key);
    if (value !== undefined) input[key] = value;
  }
  const picture = optionalString(body, 'picture', 2048);
  if (picture !== undefined) input.picture = picture;
  const metadata = userMetadata(body);
  if (metadata !== undefined) input.user_metadata = metadata;
  return input;
}

export function readChangePasswordBody(request: FastifyRequest): ChangePasswordInput {
  const body = objectBody(request);
  checkMembers(body, ['client_id', 'email', 'connection', 'organization']);
  const clientId = optionalString(body, 'client_id');
  return { ...(clientId !== undefined && { client_id: clientId }), email: email(body), connection: requiredString(body, 'connection') };
}
