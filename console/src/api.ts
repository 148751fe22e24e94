/**
 * The Management API from the browser: fetch with the operator's access token
 * (`Authorization: Bearer`), JSON in and out. A non-2xx answer becomes an
 * ApiError carrying the API's own `message`, which the pages show as is; a
 * 403 (the operator's token lacks the operation's scope) and a 401 (the
 * operator blocked or removed) get a friendlier sentence in front of it.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The token does not carry the operation's scope. */
  get forbidden(): boolean {
    return this.status === 403;
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface Api {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T = unknown>(path: string, body?: unknown): Promise<T>;
  patch<T = unknown>(path: string, body: unknown): Promise<T>;
  put<T = unknown>(path: string, body: unknown): Promise<T>;
  del<T = unknown>(path: string, body?: unknown): Promise<T>;
}

/** A path segment: ids such as `auth0|abc` must not be read as path syntax. */
export const seg = (value: string): string => encodeURIComponent(value);

function withQuery(path: string, query: Query | undefined): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function failure(res: Response): Promise<ApiError> {
  let message = `${res.status} ${res.statusText}`;
  let code: string | undefined;
  try {
    const body = (await res.json()) as { message?: unknown; errorCode?: unknown; error?: unknown };
    if (typeof body.message === 'string') message = body.message;
    if (typeof body.errorCode === 'string') code = body.errorCode;
  } catch {
    // Not JSON: the status line says it.
  }
  if (res.status === 403) message = `You are not allowed to do this: your operator role does not grant it. (${message})`;
  // The operator was blocked or removed, or the token expired: only a new login can help.
  if (res.status === 401) message = `Your access has ended: log out and log in again. (${message})`;
  return new ApiError(res.status, message, code);
}

/** An Api for `https://{host}/api/v2`, asking `token()` before every call (auth0-spa-js answers from its memory cache). */
export function createApi(base: string, token: () => Promise<string>): Api {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${await token()}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    if (!res.ok) throw await failure(res);
    const text = await res.text();
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
  return {
    get: (path, query) => call('GET', withQuery(path, query)),
    post: (path, body) => call('POST', path, body ?? {}),
    patch: (path, body) => call('PATCH', path, body),
    put: (path, body) => call('PUT', path, body),
    del: (path, body) => call('DELETE', path, body),
  };
}

/** A list answer: a bare array, or the paged shape `{<key>: [...], ...}`. */
export function listOf<T>(body: T[] | Record<string, unknown>, key: string): T[] {
  if (Array.isArray(body)) return body;
  const items = body[key];
  return Array.isArray(items) ? (items as T[]) : [];
}

/** A user id from what an operator typed: a user id as is, an email looked up with GET /users-by-email. */
export async function userIdFor(api: Api, text: string): Promise<string> {
  const value = text.trim();
  if (!value.includes('@') || value.includes('|')) return value;
  const users = await api.get<{ user_id: string }[]>('/users-by-email', { email: value });
  const first = users[0];
  if (!first) throw new Error(`No user has the email ${value}.`);
  return first.user_id;
}
