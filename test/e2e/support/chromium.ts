/**
 * Shared support of the browser tests: Debian's Chromium (/usr/bin/chromium,
 * `apt-get install chromium`; .ci/run installs it) driven by playwright-core,
 * which brings no browser of its own.
 *
 * - Without /usr/bin/chromium the tests are skipped with a reason, except
 *   under CI=true, where they run (and fail): CI must never pass by skipping.
 * - Each scenario gets a fresh browser context (its own cookies and storage)
 *   that accepts the server's self-signed certificate, and a directory
 *   `test-output/screenshots/<scenario>/` for a PNG of every step and a
 *   `browser.log` of what the browser reported: console messages, page
 *   errors, failed requests, every document loaded (the hidden iframes of
 *   silent authentication included) and every answer of 400 or more. A
 *   failing scenario gets a last screenshot and that log in its error.
 * - A JavaScript dialog (`alert`, …) in any page of a scenario fails it: the
 *   hosted pages' one script (the "Show password" button) opens none, so a
 *   dialog means injected markup ran.
 * - Applications (a callback that shows what it received, a static SPA) are
 *   node servers on 127.0.0.1 (startLocalServer below), and the tenant is set up
 *   as an operator would, through the Management API with the admin
 *   credentials.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { ROOT, type ServerProcess } from '../../helpers/server-process.js';
import { httpsRequest, managementToken } from './https.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--headless',
  // The test machine runs as root, where Chromium's sandbox cannot start.
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  // Nothing but the tests' own servers is reachable: no update checks, no sync, no component downloads.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Seconds a locator action or navigation may wait: a page that does not come is a failure, reported sooner than playwright's 30 s. */
const ACTION_TIMEOUT_MS = 15_000;

export const SCREENSHOTS_DIR = path.join(ROOT, 'test-output', 'screenshots');

/** Why the browser tests cannot run here, or false when they can (and must: under CI=true they always run). */
export function chromiumSkipReason(): string | false {
  if (process.env.CI === 'true' || fs.existsSync(CHROMIUM_PATH)) return false;
  return `${CHROMIUM_PATH} is missing (apt-get install chromium); under CI=true these tests run`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS });
}

/** A file-system-safe name for a scenario or step. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
}

function frameKind(response: Response): string {
  const frame = response.frame();
  return frame.parentFrame() === null ? 'main frame' : `iframe of ${frame.parentFrame()!.url()}`;
}

/** One browser context, its page, its screenshots and what the browser reported. */
export class Scenario {
  /** What the browser reported, in order (written to browser.log). */
  readonly log: string[] = [];
  /** The messages of JavaScript dialogs that opened (each one dismissed). */
  readonly dialogs: string[] = [];
  #step = 0;

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly dir: string,
  ) {}

  static async open(browser: Browser, name: string): Promise<Scenario> {
    const dir = path.join(SCREENSHOTS_DIR, slug(name));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    const scenario = new Scenario(context, page, dir);
    scenario.watch(context);
    return scenario;
  }

  private watch(context: BrowserContext): void {
    context.on('console', (message) => this.log.push(`console.${message.type()} ${message.text()} (${message.location().url})`));
    context.on('weberror', (error) => this.log.push(`page error: ${error.error().message}`));
    context.on('requestfailed', (request) => this.log.push(`request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
    context.on('response', (response) => {
      const request = response.request();
      if (request.resourceType() !== 'document' && response.status() < 400) return;
      this.log.push(`${response.status()} ${request.method()} ${response.url()} (${request.resourceType()}, ${frameKind(response)})`);
    });
    context.on('dialog', (dialog) => {
      this.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      this.log.push(`dialog ${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    });
  }

  /** A PNG of the page as it is now: `<dir>/<NN>-<step>.png`. */
  async shot(step: string): Promise<void> {
    this.#step += 1;
    await this.page.screenshot({ path: path.join(this.dir, `${String(this.#step).padStart(2, '0')}-${slug(step)}.png`), fullPage: true });
  }

  /** The browser's reports as one block of text, for failure messages. */
  report(): string {
    return this.log.length === 0 ? '(the browser reported nothing)' : this.log.join('\n');
  }

  async close(): Promise<void> {
    fs.writeFileSync(path.join(this.dir, 'browser.log'), this.report() + '\n');
    await this.context.close();
  }
}

/**
 * Runs one scenario in a fresh context: a dialog fails it, and a failure
 * gets a screenshot of where it stopped and the browser's reports appended.
 */
export async function inScenario(browser: Browser, name: string, run: (scenario: Scenario) => Promise<void>): Promise<void> {
  const scenario = await Scenario.open(browser, name);
  try {
    await run(scenario);
    assert.deepEqual(scenario.dialogs, [], 'no JavaScript dialog opened');
  } catch (error) {
    await scenario.shot('failed').catch(() => undefined);
    // The reporters print the stack, which already holds the message.
    if (error instanceof Error) error.stack = `${error.stack ?? error.message}\n--- what the browser reported ---\n${scenario.report()}`;
    throw error;
  } finally {
    await scenario.close();
  }
}

/** The URL a navigation's response came from, and the URLs of the redirects before it, first to last. */
export function redirectChain(response: Response | null): URL[] {
  const chain: URL[] = [];
  for (let request = response?.request() ?? null; request; request = request.redirectedFrom()) chain.unshift(new URL(request.url()));
  return chain;
}

export interface LocalServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * A server on 127.0.0.1 (a port of its own) for an application the browser
 * visits: plain HTTP at `http://127.0.0.1:PORT`, another site than the
 * tenant's `localhost`; or, given a certificate for localhost (the tenant's
 * own), HTTPS at `https://localhost:PORT`, the tenant's site (a site is the
 * scheme and registrable domain: the port does not count).
 */
export async function startLocalServer(handler: http.RequestListener, tls?: { cert: Buffer; key: Buffer }): Promise<LocalServer> {
  const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ManagementApi = (method: string, path: string, body?: unknown) => Promise<Record<string, unknown>>;

/** Management API calls as the server's admin client; a non-2xx answer fails the test. */
export async function managementApi(server: ServerProcess): Promise<ManagementApi> {
  const ca = fs.readFileSync(server.certFile);
  const token = await managementToken(server);
  return async (method, apiPath, body) => {
    const res = await httpsRequest(`${server.baseUrl}/api/v2${apiPath}`, {
      ca,
      method,
      // A content type only with a body: a JSON content type with an empty body is a 400 (as on the service).
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    assert.ok(res.status >= 200 && res.status < 300, `${method} ${apiPath}: ${res.status} ${res.text}`);
    return res.text === '' ? {} : res.json<Record<string, unknown>>();
  };
}

export interface LoginApplication {
  /** The application's callback page (plain HTTP on 127.0.0.1): "Signed in". */
  callbackServer: LocalServer;
  clientId: string;
  /** The database connection enabled for it, which holds the user. */
  connection: string;
}

/**
 * A regular web application to log in to through the hosted pages, set up
 * as an operator would: its callback page, a first-party client whose only
 * callback it is, a database connection enabled for it and a user in it.
 */
export async function loginApplication(management: ManagementApi, name: string, user: { email: string; password: string }): Promise<LoginApplication> {
  const callbackServer = await startLocalServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!DOCTYPE html><html lang="en"><head><title>Callback</title></head><body><main><h1>Signed in</h1></main></body></html>');
  });
  const connection = `${slug(name)}-users-${randomBytes(3).toString('hex')}`;
  const connectionId = (await management('POST', '/connections', { name: connection, strategy: 'auth0' })).id as string;
  const app = await management('POST', '/clients', {
    name,
    app_type: 'regular_web',
    is_first_party: true,
    callbacks: [`${callbackServer.origin}/callback`],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_post',
  });
  const clientId = app.client_id as string;
  await management('PATCH', `/connections/${connectionId}/clients`, [{ client_id: clientId, status: true }]);
  await management('POST', '/users', { connection, email: user.email, password: user.password });
  return { callbackServer, clientId, connection };
}

/**
 * What a function of a test page's `window[name]` returns (./spa/app.js,
 * ./auth0-js/app.js): its value, or the error's fields, which do not cross
 * page.evaluate on an Error.
 */
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: string; error_description: string };

/** Calls `window[name][method](arg)` in the page and returns its outcome. */
export function callPage<T = unknown>(page: Page, name: string, method: string, arg?: unknown): Promise<Outcome<T>> {
  return page.evaluate(
    ({ name, method, arg }) => (globalThis as unknown as Record<string, Record<string, (arg: unknown) => Promise<Outcome<T>>>>)[name]![method]!(arg),
    { name, method, arg },
  );
}

/** The outcome's value; fails the test with the error otherwise. */
export function outcomeValue<T>(outcome: Outcome<T>, what: string): T {
  assert.ok(outcome.ok, `${what}: ${JSON.stringify(outcome)}`);
  return outcome.value;
}
