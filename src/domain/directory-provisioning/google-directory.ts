/**
 * A client of Google's Admin SDK Directory API, as a synchronization uses it:
 *
 * - an access token from the connection's administrator consent: the OAuth
 *   2.0 refresh grant (RFC 6749 §6) at Google's token endpoint (the
 *   connection's discovered `token_endpoint`) with the connection's
 *   `client_id`, `client_secret` and `admin_refresh_token`;
 * - `GET /admin/directory/v1/users?customer=my_customer&maxResults=…&pageToken=…`
 *   (users.list, `nextPageToken` paging), `projection=full`;
 * - `GET /admin/directory/v1/groups?customer=my_customer` (groups.list) and
 *   `GET /admin/directory/v1/groups/{groupKey}/members` (members.list).
 *
 * Every call goes through the caller's fetch (the outbound guard's); an
 * answer other than 200 becomes a DirectoryError naming the call, never the
 * token.
 */
import type { JsonObject } from '../json.js';
import type { UpstreamFetch } from '../../platform/http/upstream-fetch.js';

export const GOOGLE_TOKEN_ENDPOINT = 'https://oauth2.googleapis.com/token';
/** Google's largest users.list page. */
export const USERS_PAGE_SIZE = 500;
/** Google's largest groups.list and members.list page. */
export const GROUPS_PAGE_SIZE = 200;

export class DirectoryError extends Error {}

export interface DirectoryCredentials {
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

export interface DirectoryPage<T> {
  items: T[];
  nextPageToken?: string;
}

export interface DirectoryGroup {
  id: string;
  email?: string;
  name?: string;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export class GoogleDirectoryClient {
  private accessToken: string | undefined;

  constructor(
    private readonly fetch: UpstreamFetch,
    private readonly baseUrl: string,
    private readonly credentials: DirectoryCredentials,
  ) {}

  private async token(): Promise<string> {
    if (this.accessToken) return this.accessToken;
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: this.credentials.refreshToken,
      client_id: this.credentials.clientId,
      client_secret: this.credentials.clientSecret,
    });
    const res = await this.fetch(this.credentials.tokenEndpoint, { method: 'POST', body, headers: { accept: 'application/json' } });
    const answer: unknown = await res.json().catch(() => undefined);
    if (res.status !== 200 || !isObject(answer) || typeof answer.access_token !== 'string') {
      const error = isObject(answer) && typeof answer.error === 'string' ? answer.error : `status ${res.status}`;
      throw new DirectoryError(`Google's token endpoint refused the connection's administrator consent (${error}); complete the administrator setup again.`);
    }
    this.accessToken = answer.access_token;
    return this.accessToken;
  }

  private async get(path: string, query: Record<string, string | undefined>): Promise<JsonObject> {
    const url = new URL(`/admin/directory/v1/${path}`, this.baseUrl);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    const res = await this.fetch(url, { headers: { authorization: `Bearer ${await this.token()}`, accept: 'application/json' } });
    const answer: unknown = await res.json().catch(() => undefined);
    if (res.status !== 200 || !isObject(answer)) {
      const reason = isObject(answer) && isObject(answer.error) && typeof answer.error.message === 'string' ? `: ${answer.error.message.slice(0, 200)}` : '';
      throw new DirectoryError(`The Directory API answered ${res.status} to ${url.pathname}${reason}`);
    }
    return answer;
  }

  /** One page of users.list. */
  async users(pageToken: string | undefined, maxResults = USERS_PAGE_SIZE): Promise<DirectoryPage<JsonObject>> {
    const answer = await this.get('users', { customer: 'my_customer', projection: 'full', maxResults: String(maxResults), pageToken });
    return page(answer, 'users', (item): item is JsonObject => isObject(item) && typeof item.id === 'string' && typeof item.primaryEmail === 'string');
  }

  /** One page of groups.list. */
  async groups(pageToken: string | undefined): Promise<DirectoryPage<DirectoryGroup>> {
    const answer = await this.get('groups', { customer: 'my_customer', maxResults: String(GROUPS_PAGE_SIZE), pageToken });
    return page(answer, 'groups', (item): item is DirectoryGroup => isObject(item) && typeof item.id === 'string');
  }

  /** One page of a group's members (users only: nested groups and customers are not users of the connection). */
  async members(groupKey: string, pageToken: string | undefined): Promise<DirectoryPage<{ id: string; type?: string }>> {
    const answer = await this.get(`groups/${encodeURIComponent(groupKey)}/members`, { maxResults: String(GROUPS_PAGE_SIZE), pageToken });
    return page(answer, 'members', (item): item is { id: string; type?: string } => isObject(item) && typeof item.id === 'string');
  }
}

function page<T>(answer: JsonObject, key: string, valid: (item: unknown) => item is T): DirectoryPage<T> {
  const list = answer[key];
  const items = Array.isArray(list) ? list.filter(valid) : [];
  const next = answer.nextPageToken;
  return { items, ...(typeof next === 'string' && next !== '' && { nextPageToken: next }) };
}
