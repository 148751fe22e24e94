/**
 * A local HTTPS stand-in for Google's OAuth 2.0 token endpoint and the Admin
 * SDK Directory API (Google cannot be reached from the tests), answering as
 * Google documents them:
 *
 * - `POST /token`: the refresh grant (RFC 6749 §6); the client's id and
 *   secret and the administrator's refresh token must be the ones given at
 *   start; answers a bearer access token.
 * - `GET /admin/directory/v1/users?customer=my_customer&maxResults=…&pageToken=…`:
 *   users.list, `{kind, users, nextPageToken}`, at most `pageSize` users a
 *   page (fewer than maxResults, as Google may answer), with an opaque
 *   `nextPageToken`.
 * - `GET /admin/directory/v1/groups?customer=my_customer` and
 *   `GET /admin/directory/v1/groups/{groupKey}/members`: groups.list and
 *   members.list, paged the same way.
 *
 * Every Directory call needs a bearer token the stand-in issued. The test
 * edits `users`, `groups` and `members` between synchronizations.
 */
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface DirectoryStandInOptions {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  tls: { cert: string; key: string };
  pageSize?: number;
}

export interface DirectoryStandIn {
  url: string;
  tokenUrl: string;
  users: Record<string, unknown>[];
  groups: { id: string; email: string; name: string }[];
  members: Record<string, { id: string; type: string }[]>;
  /** Paths and queries of the Directory calls, in order. */
  calls: string[];
  /** When set, the token endpoint answers `invalid_grant`. */
  refuseTokens: boolean;
  close(): Promise<void>;
}

const cursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const offsetOf = (token: string | null) => (token ? Number(Buffer.from(token, 'base64url').toString().slice('offset:'.length)) : 0);

export async function startDirectoryStandIn(options: DirectoryStandInOptions): Promise<DirectoryStandIn> {
  const pageSize = options.pageSize ?? 2;
  const accessTokens = new Set<string>();
  const standIn: DirectoryStandIn = {
    url: '',
    tokenUrl: '',
    users: [],
    groups: [],
    members: {},
    calls: [],
    refuseTokens: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const answer = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(JSON.stringify(body));
  };
  const paged = <T>(items: T[], url: URL, key: string, kind: string) => {
    const max = Math.min(pageSize, Number(url.searchParams.get('maxResults') ?? pageSize));
    const offset = offsetOf(url.searchParams.get('pageToken'));
    const page = items.slice(offset, offset + max);
    return { kind, etag: `"${randomBytes(4).toString('hex')}"`, [key]: page, ...(offset + max < items.length && { nextPageToken: cursor(offset + max) }) };
  };
  const server = https.createServer(options.tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', standIn.url);
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        if (form.get('grant_type') !== 'refresh_token') return answer(res, 400, { error: 'unsupported_grant_type' });
        if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) return answer(res, 401, { error: 'invalid_client' });
        if (standIn.refuseTokens || form.get('refresh_token') !== options.refreshToken) return answer(res, 400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
        const token = `ya29.${randomBytes(16).toString('hex')}`;
        accessTokens.add(token);
        return answer(res, 200, { access_token: token, expires_in: 3599, scope: 'https://www.googleapis.com/auth/admin.directory.user.readonly', token_type: 'Bearer' });
      }
      if (req.method !== 'GET' || !url.pathname.startsWith('/admin/directory/v1/')) return answer(res, 404, { error: { code: 404, message: 'Not Found' } });
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !accessTokens.has(bearer)) return answer(res, 401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
      standIn.calls.push(`${url.pathname}${url.search}`);
      const path = url.pathname.slice('/admin/directory/v1/'.length);
      if (path === 'users') {
        if (url.searchParams.get('customer') !== 'my_customer') return answer(res, 400, { error: { code: 400, message: 'Bad Request' } });
        return answer(res, 200, paged(standIn.users, url, 'users', 'admin#directory#users'));
      }
      if (path === 'groups') return answer(res, 200, paged(standIn.groups, url, 'groups', 'admin#directory#groups'));
      const members = /^groups\/([^/]+)\/members$/.exec(path);
      if (members) {
        const list = standIn.members[decodeURIComponent(members[1]!)];
        if (!list) return answer(res, 404, { error: { code: 404, message: 'Resource Not Found: groupKey' } });
        return answer(res, 200, paged(list, url, 'members', 'admin#directory#members'));
      }
      return answer(res, 404, { error: { code: 404, message: 'Not Found' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.tokenUrl = `${standIn.url}/token`;
  return standIn;
}

/** A Directory API `User` resource, as users.list with `projection=full` answers it. */
export function directoryUser(id: string, email: string, given: string, family: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'admin#directory#user',
    id,
    primaryEmail: email,
    name: { givenName: given, familyName: family, fullName: `${given} ${family}` },
    isAdmin: false,
    suspended: false,
    archived: false,
    orgUnitPath: '/',
    organizations: [{ title: 'Engineer', department: 'R&D', primary: true, customType: '' }],
    externalIds: [{ value: `E-${id}`, type: 'organization' }],
    ...extra,
  };
}
