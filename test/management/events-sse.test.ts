/**
 * GET /api/v2/events: the tenant's events as Server-Sent Events, through the
 * `auth0` SDK (events.subscribe) and a raw HTTP reader, on the app listening
 * on a real socket. The events streams produce (users and organizations
 * changed through the Management API) arrive as the service's SSE messages
 * with the CloudEvent; `event_type` filters (offset-only messages carry the
 * cursor past what it left out); `from` resumes after an offset,
 * `from_timestamp` replays; heartbeat comments; another tenant's events and
 * cursors never cross; the refusals (bad cursor 400, expired cursor 410,
 * unknown type 400, the scope 403, beyond the subscriber limit 403); on
 * PostgreSQL an event committed by another process reaches the subscriber;
 * and closing the server ends open streams at once instead of waiting on them.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ManagementClient } from 'auth0';
import { sealOffset } from '../../src/management/events/subscriptions.js';
import { createTestApp, DOMAIN, tokenRequest, withSecondProcess, type TestApp } from '../helpers/app.js';
import { postgresAvailable } from '../helpers/postgres.js';

const REALM = 'Username-Password-Authentication';
const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

interface SseMessage {
  event: string;
  id?: string;
  data: { offset?: string; event?: Record<string, unknown> & { type: string; data: { object: Record<string, unknown> } }; error?: { code: string } };
}

/** A raw SSE reader: the status, then messages and comments as they come. */
class SseReader {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  status = 0;
  body = '';
  ended = false;
  #request: http.ClientRequest | undefined;
  #waiters: (() => void)[] = [];

  static open(port: number, token: string, query = '', host = DOMAIN): Promise<SseReader> {
    const reader = new SseReader();
    return new Promise((resolve, reject) => {
      reader.#request = http.get({ host: '127.0.0.1', port, path: `/api/v2/events${query}`, headers: { host, authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
        reader.status = res.statusCode ?? 0;
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (reader.status !== 200) {
            reader.body += chunk;
            return;
          }
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields: Record<string, string> = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) reader.comments.push(line.slice(1).trim());
              else fields[line.slice(0, line.indexOf(':'))] = line.slice(line.indexOf(':') + 1).trim();
            }
            if (fields.event) reader.messages.push({ event: fields.event, ...(fields.id && { id: fields.id }), data: JSON.parse(fields.data ?? '{}') as SseMessage['data'] });
          }
          reader.#notify();
        });
        res.on('end', () => {
          reader.ended = true;
          reader.#notify();
        });
        res.on('error', () => undefined);
        resolve(reader);
      });
      reader.#request.on('error', reject);
    });
  }

  #notify(): void {
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** Waits until `ready()` holds (or fails after `ms`). */
  async until(ready: () => boolean, ms = 5000, what = 'the stream'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ready()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.messages.map((m) => m.event))}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  events(): SseMessage[] {
    return this.messages.filter((m) => m.event !== 'offset-only' && m.event !== 'error');
  }

  close(): void {
    this.#request?.destroy();
  }
}

/** `fetch` for the SDK: over the app's socket, with the tenant's Host, the body streamed. */
function socketFetch(port: number): typeof fetch {
  return (input, init) =>
    new Promise((resolve, reject) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const req = http.request({ host: '127.0.0.1', port, method: request.method, path: url.pathname + url.search, headers: { ...Object.fromEntries(request.headers), host: DOMAIN } }, (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve(new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode ?? 500, headers }));
      });
      request.signal.addEventListener('abort', () => req.destroy());
      req.on('error', reject);
      req.end();
    });
}

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

for (const database of ['SQLite', 'PostgreSQL'] as const) {
  describe(`events over SSE: ${database}`, { skip: database === 'PostgreSQL' && skipPostgres }, () => {
    let t: TestApp;
    let port: number;
    let token: string;
    const api = (method: string, url: string, body?: unknown) => t.management(method, `/api/v2${url}`, { token, ...(body !== undefined && { body }) });
    const createUser = async (email: string) => {
      const res = await api('POST', '/users', { connection: REALM, email, password: 'Pa55word!x' });
      assert.equal(res.statusCode, 201, res.body);
      return (res.json() as { user_id: string }).user_id;
    };

    before(async () => {
      t = await createTestApp({
        postgres: database === 'PostgreSQL',
        env: { GATEHOUSE_EVENTS_MAX_SUBSCRIBERS: '2', GATEHOUSE_EVENTS_HEARTBEAT: '0.3', GATEHOUSE_EVENTS_POLL: '0.05' },
      });
      token = await t.managementToken();
      assert.equal((await api('POST', '/connections', { name: REALM, strategy: 'auth0' })).statusCode, 201);
      port = await listen(t);
    });
    after(() => t.close());

    it('the SDK receives the CloudEvents of changes, filtered by event_type; offset-only messages carry the cursor', async () => {
      const sdk = new ManagementClient({ domain: DOMAIN, token, maxRetries: 0, fetch: socketFetch(port) });
      const controller = new AbortController();
      const stream = await sdk.events.subscribe({ event_type: ['user.created', 'user.deleted'] }, { abortSignal: controller.signal });
      const received: { type: string; offset?: string; event?: Record<string, unknown> }[] = [];
      const reading = (async () => {
        try {
          for await (const message of stream) {
            received.push(message as (typeof received)[number]);
            if (message.type === 'user.deleted') break;
          }
        } catch {
          // Aborted.
        }
      })();
      // The first message is the starting cursor.
      const started = Date.now();
      while (received.length === 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 20));
      assert.equal(received[0]?.type, 'offset-only');

      const waitFor = async (ready: () => boolean) => {
        const deadline = Date.now() + 5000;
        while (!ready() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        assert.ok(ready(), JSON.stringify(received.map((m) => m.type)));
      };
      const userId = await createUser('sse-ann@example.com');
      await waitFor(() => received.some((m) => m.type === 'user.created'));
      const seen = received.length;
      assert.equal((await api('PATCH', `/users/${encodeURIComponent(userId)}`, { given_name: 'Ann' })).statusCode, 200);
      // user.updated is left out by the filter: an offset-only message moves the cursor past it.
      await waitFor(() => received.length > seen);
      assert.equal(received[seen]!.type, 'offset-only');
      assert.notEqual(received[seen]!.offset, received[seen - 1]!.offset);
      assert.equal((await api('DELETE', `/users/${encodeURIComponent(userId)}`)).statusCode, 204);
      await Promise.race([reading, new Promise((_, reject) => setTimeout(() => reject(new Error(`no user.deleted: ${JSON.stringify(received.map((m) => m.type))}`)), 5000))]);
      controller.abort();

      const created = received.find((m) => m.type === 'user.created')!;
      const event = created.event as { specversion: string; id: string; type: string; source: string; time: string; a0tenant: string; a0stream: string; data: { object: { user_id: string; email: string; password_hash?: string } } };
      assert.equal(event.specversion, '1.0');
      assert.equal(event.type, 'user.created');
      assert.match(event.id, /^evt_/);
      assert.equal(event.source, `urn:auth0:${DOMAIN}`);
      assert.equal(event.a0tenant, t.tenant.name);
      assert.match(event.a0stream, /^est_/);
      assert.equal(event.data.object.user_id, userId);
      assert.equal(event.data.object.email, 'sse-ann@example.com');
      assert.equal(event.data.object.password_hash, undefined);
      assert.ok(typeof created.offset === 'string' && created.offset.length > 0);
      assert.deepEqual(received.map((m) => m.type).filter((type) => type !== 'offset-only'), ['user.created', 'user.deleted']);
    });

    it('resumes after an offset and replays from a timestamp; heartbeat comments keep an idle stream open', async () => {
      const since = new Date(t.ctx.now() - 1000).toISOString().replace(/\.\d+Z$/, 'Z');
      const live = await SseReader.open(port, token);
      await live.until(() => live.messages.length > 0);
      const bob = await createUser('sse-bob@example.com');
      const org = await api('POST', '/organizations', { name: 'sse-acme' });
      assert.equal(org.statusCode, 201);
      await live.until(() => live.events().length >= 2);
      assert.deepEqual(live.events().map((m) => m.event), ['user.created', 'organization.created']);
      assert.equal(live.events()[0]!.id, live.events()[0]!.data.offset, 'the SSE id is the offset');
      // Idle now: heartbeats.
      await live.until(() => live.comments.includes('heartbeat'), 3000, 'a heartbeat');
      live.close();

      const resumed = await SseReader.open(port, token, `?from=${encodeURIComponent(live.events()[0]!.data.offset!)}`);
      await resumed.until(() => resumed.events().length >= 1);
      assert.deepEqual(resumed.events().map((m) => m.event), ['organization.created']);
      assert.equal(resumed.events()[0]!.data.event!.id, live.events()[1]!.data.event!.id, 'the same event');
      resumed.close();

      const replay = await SseReader.open(port, token, `?from_timestamp=${since}&event_type=user.created`);
      await replay.until(() => replay.events().some((m) => m.data.event!.data.object.user_id === bob));
      assert.ok(replay.events().every((m) => m.event === 'user.created'));
      replay.close();
    });

    it('concurrent changes take contiguous positions; a subscriber gets each event once, in position order', async () => {
      const reader = await SseReader.open(port, token, '?event_type=user.created');
      await reader.until(() => reader.messages.length > 0);
      const { latest: before } = await t.ctx.stores.eventStreams.eventLogBounds(t.tenant.id);
      const emails = Array.from({ length: 12 }, (_, i) => `sse-burst-${i}@example.com`);
      await Promise.all(emails.map((email) => createUser(email)));
      await reader.until(() => reader.events().length >= emails.length);
      await new Promise((r) => setTimeout(r, 200));
      const got = reader.events().map((m) => m.data.event!.data.object.email as string);
      assert.deepEqual([...got].sort(), [...emails].sort(), 'each event exactly once');
      const logged = await t.ctx.stores.eventStreams.eventsAfter(t.tenant.id, before, 100);
      assert.deepEqual(logged.map((row) => row.seq), Array.from({ length: emails.length }, (_, i) => before + 1 + i), 'positions without gaps');
      assert.deepEqual(got, logged.map((row) => row.event.data.object.email), 'in position order');
      reader.close();
    });

    it("another tenant's events and cursors never cross", async () => {
      const domain = `other-${database.toLowerCase()}.test`;
      const other = await t.ctx.tenants.create({ domain });
      const issued = await tokenRequest(t.app, { grant_type: 'client_credentials', client_id: other.adminClientId, client_secret: other.adminClientSecret, audience: `https://${domain}/api/v2/` }, { host: domain });
      assert.equal(issued.statusCode, 200, issued.body);
      const otherToken = (issued.json() as { access_token: string }).access_token;
      const mine = await SseReader.open(port, token);
      const theirs = await SseReader.open(port, otherToken, '', domain);
      await mine.until(() => mine.messages.length > 0);
      await theirs.until(() => theirs.messages.length > 0);
      const created = await t.app.inject({ method: 'POST', url: '/api/v2/organizations', headers: { host: domain, authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' }, payload: { name: 'theirs' } });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal((await api('POST', '/organizations', { name: 'mine' })).statusCode, 201);
      await mine.until(() => mine.events().length >= 1);
      await theirs.until(() => theirs.events().length >= 1);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(mine.events().map((m) => (m.data.event!.data.object as { name: string }).name), ['mine']);
      assert.deepEqual(theirs.events().map((m) => (m.data.event!.data.object as { name: string }).name), ['theirs']);
      mine.close();
      theirs.close();
      // Their cursor is refused at this tenant.
      const crossed = await SseReader.open(port, token, `?from=${encodeURIComponent(theirs.events()[0]!.data.offset!)}`);
      await crossed.until(() => crossed.ended);
      assert.equal(crossed.status, 400);
      assert.equal(JSON.parse(crossed.body).errorCode, 'invalid_cursor');
    });

    it('refuses a bad cursor, an expired one, an unknown type, a bad timestamp and a token without read:events', async () => {
      const refused = async (query: string, as = token) => {
        const reader = await SseReader.open(port, as, query);
        await reader.until(() => reader.ended);
        return { status: reader.status, body: JSON.parse(reader.body || '{}') as { errorCode?: string; message: string } };
      };
      const garbage = await refused('?from=not-a-cursor');
      assert.equal(garbage.status, 400);
      assert.equal(garbage.body.message, 'Invalid cursor format.');
      const future = await refused(`?from=${encodeURIComponent(sealOffset(t.ctx.box, t.tenant.id, 1_000_000))}`);
      assert.equal(future.status, 400);
      // The log's events before the latest are purged: a cursor before them is gone, one at the oldest kept still resumes.
      const { latest } = await t.ctx.stores.eventStreams.eventLogBounds(t.tenant.id);
      assert.ok(latest >= 3, `latest ${latest}`);
      await t.ctx.database.db.deleteFrom('tenant_events').where('tenant_id', '=', t.tenant.id).where('seq', '<', latest).execute();
      const expired = await refused(`?from=${encodeURIComponent(sealOffset(t.ctx.box, t.tenant.id, 1))}`);
      assert.equal(expired.status, 410);
      assert.equal(expired.body.errorCode, 'cursor_expired');
      assert.equal(expired.body.message, 'Cursor points to data no longer available in the stream.');
      const kept = await SseReader.open(port, token, `?from=${encodeURIComponent(sealOffset(t.ctx.box, t.tenant.id, latest - 1))}`);
      await kept.until(() => kept.events().length === 1);
      assert.equal(kept.status, 200);
      kept.close();

      const unknownType = await refused('?event_type=user.exploded');
      assert.equal(unknownType.status, 400);
      assert.equal(unknownType.body.errorCode, 'invalid_query_string');
      const badTime = await refused('?from_timestamp=yesterday');
      assert.equal(badTime.status, 400);
      const scope = await refused('', await t.managementToken('read:users'));
      assert.equal(scope.status, 403);
      assert.match(scope.body.message, /read:events/);
    });

    it('at most GATEHOUSE_EVENTS_MAX_SUBSCRIBERS open subscriptions per tenant; a slot comes back when one closes', async () => {
      const first = await SseReader.open(port, token);
      const second = await SseReader.open(port, token);
      await first.until(() => first.messages.length > 0);
      await second.until(() => second.messages.length > 0);
      const third = await SseReader.open(port, token);
      await third.until(() => third.ended);
      assert.equal(third.status, 403);
      assert.deepEqual(JSON.parse(third.body), {
        statusCode: 403,
        error: 'Forbidden',
        message: 'Maximum concurrent event stream connections reached. Please close existing connections.',
        errorCode: 'too_many_connections',
      });
      first.close();
      let fourth: SseReader | undefined;
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        fourth = await SseReader.open(port, token);
        await fourth.until(() => fourth!.messages.length > 0 || fourth!.ended);
        if (fourth.status === 200) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(fourth?.status, 200, 'the closed subscription gave its slot back');
      fourth!.close();
      second.close();
    });

    if (database === 'PostgreSQL') {
      it('an event committed by another process reaches a subscriber of this one', async () => {
        const reader = await SseReader.open(port, token);
        await reader.until(() => reader.messages.length > 0);
        await withSecondProcess(t, async (other) => {
          const created = await other.inject({
            method: 'POST',
            url: '/api/v2/users',
            headers: { host: DOMAIN, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            payload: { connection: REALM, email: 'sse-elsewhere@example.com', password: 'Pa55word!x' },
          });
          assert.equal(created.statusCode, 201, created.body);
          await reader.until(() => reader.events().some((m) => m.data.event!.data.object.email === 'sse-elsewhere@example.com'));
          reader.close();
        });
      });
    }
  });
}

describe('events over SSE: shutdown', () => {
  it('closing the server ends open streams at once, each with a last offset to resume from', async () => {
    const t = await createTestApp({ env: { GATEHOUSE_EVENTS_HEARTBEAT: '60' } });
    try {
      const port = await listen(t);
      const token = await t.managementToken();
      const readers = [await SseReader.open(port, token), await SseReader.open(port, token, '?event_type=user.created')];
      for (const reader of readers) await reader.until(() => reader.messages.length > 0);
      const started = Date.now();
      await Promise.race([t.app.close(), new Promise((_, reject) => setTimeout(() => reject(new Error('close() waited on the open streams')), 3000))]);
      assert.ok(Date.now() - started < 3000);
      for (const reader of readers) {
        await reader.until(() => reader.ended, 1000, 'the end of the stream');
        assert.equal(reader.messages.at(-1)!.event, 'offset-only');
        assert.ok(reader.messages.at(-1)!.data.offset);
      }
    } finally {
      await t.close();
    }
  });
});
