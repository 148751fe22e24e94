/**
 * HTTPS plumbing for the black-box tests: requests that trust the server's
 * self-signed certificate explicitly (`ca`, never rejectUnauthorized=false),
 * a fetch-compatible function on top of them for libraries that accept a
 * custom fetch, and bookkeeping so that every spawned process and temporary
 * directory is cleaned up even when a test fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { ServerProcess } from '../../helpers/server-process.js';

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json<T = unknown>(): T;
}

export interface HttpsOptions {
  /** PEM of the certificate to trust. */
  ca: string | Buffer;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: https.Agent;
  timeoutMs?: number;
}

/** One HTTPS request with certificate verification against `ca`. */
export function httpsRequest(url: string, options: HttpsOptions): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && headers['content-length'] === undefined) {
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const req = https.request(
      url,
      {
        method: options.method ?? 'GET',
        headers,
        ...(options.agent ? { agent: options.agent } : { ca: options.ca, agent: false }),
        timeout: options.timeoutMs ?? 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json<T>() {
              return JSON.parse(text) as T;
            },
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`request to ${url} timed out`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The admin client's credentials as a token request body (JSON). */
export function tokenBody(clientId: string, clientSecret: string, audience: string, extra: Record<string, string> = {}): string {
  return JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, audience, ...extra });
}

/** POST /oauth/token for the Management API as the admin client; returns the raw result. */
export function requestManagementToken(
  server: Pick<ServerProcess, 'baseUrl' | 'domain'>,
  ca: string | Buffer,
  clientId: string,
  clientSecret: string,
): Promise<HttpResult> {
  return httpsRequest(`${server.baseUrl}/oauth/token`, {
    ca,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: tokenBody(clientId, clientSecret, `https://${server.domain}/api/v2/`),
  });
}

/** A Management API access token for the server's admin client (admin-credentials.json). */
export async function managementToken(server: ServerProcess): Promise<string> {
  const admin = server.admin();
  const result = await requestManagementToken(server, fs.readFileSync(server.certFile), admin.client_id, admin.client_secret);
  if (result.status !== 200) throw new Error(`token request failed: ${result.status} ${result.text}`);
  return result.json<{ access_token: string }>().access_token;
}

type FetchInit = {
  method?: string;
  headers?: Headers | Record<string, string> | [string, string][];
  body?: unknown;
  signal?: AbortSignal | null;
  redirect?: string;
};

function bodyBytes(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), 'utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError(`caFetch: unsupported body type ${Object.prototype.toString.call(body)}`);
}

/**
 * A fetch-compatible function over node:https that trusts exactly `ca` (with
 * full verification), for openid-client's and jose's `customFetch`.
 * Redirects are not followed (both libraries ask for `redirect: 'manual'`).
 */
export function caFetch(ca: string | Buffer): (url: string | URL, init?: FetchInit) => Promise<Response> {
  return (url, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => (headers[name] = value));
      const body = bodyBytes(init.body);
      if (body && headers['content-length'] === undefined) headers['content-length'] = String(body.length);
      const req = https.request(String(url), { method: init.method ?? 'GET', headers, ca, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value === undefined) continue;
            for (const v of Array.isArray(value) ? value : [value]) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 0;
          const nullBody = status === 204 || status === 205 || status === 304;
          resolve(
            new Response(nullBody ? null : Buffer.concat(chunks), {
              status,
              statusText: res.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
        });
      });
      req.on('error', reject);
      if (init.signal) {
        if (init.signal.aborted) req.destroy(init.signal.reason instanceof Error ? init.signal.reason : new Error('aborted'));
        init.signal.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      }
      req.end(body);
    });
}

export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Children started by `runNode`, killed by `killAll` in after hooks. */
const children = new Set<ChildProcess>();

/** Runs `node <args>` to completion (killed after `timeoutMs`). */
export function runNode(args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      stderr += `\n[killed after ${options.timeoutMs ?? 60_000} ms]`;
    }, options.timeoutMs ?? 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Stops servers that are still running (SIGTERM, then SIGKILL) and kills leftover children. */
export async function cleanUp(servers: Iterable<ServerProcess>, dirs: Iterable<string> = []): Promise<void> {
  for (const server of servers) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) continue;
    const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
    server.child.kill('SIGTERM');
    const timer = setTimeout(() => server.child.kill('SIGKILL'), 12_000);
    await exited;
    clearTimeout(timer);
  }
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 50 ms until it is true or `timeoutMs` passes; returns whether it became true. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}
