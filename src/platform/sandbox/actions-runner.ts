/**
 * The sandbox process: runs a tenant's code (Actions, connection scripts) the
 * way the service's own runtime loads it (`compileFunction` of a CommonJS
 * wrapper, a real `require` over the version's installed dependencies and
 * Node's built-ins, `fetch`), and answers with the commands the code asked
 * for. It is started by ./pool.ts as another, unprivileged user, with an
 * empty environment, its working directory an empty folder, a memory cap and
 * Node's permission model (`--permission`: no file outside the runner and the
 * dependencies' folders, no child process, no worker, no addon); the host
 * kills it past the time limit. It imports nothing of the server (a layer
 * rule): nothing the server holds is in this process.
 *
 * Protocol: one JSON object a line. The host writes invocations on stdin;
 * the runner writes one result line per invocation on stdout.
 *
 * This file runs as is under Node's type stripping (tests) and bundled as
 * dist/server/actions-runner.js: TypeScript's erasable syntax only.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, timingSafeEqual } from 'node:crypto';
import dns from 'node:dns';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import util from 'node:util';
import vm from 'node:vm';

/** What the host sends for one run. */
interface Invocation {
  id: number;
  /** sha256 of the code (and its dependency folder): compiled modules are cached under it. */
  key: string;
  code: string;
  modulesDir: string | null;
  /** Actions modules the code may `require('actions:<name>')`. */
  modules?: ActionsModule[];
  /** The exported function to call (`onExecutePostLogin`). */
  handler: string;
  /** The arguments before `api` (the event; a connection script's own arguments). */
  args: unknown[];
  api: ApiShape | null;
  /** A connection script's last argument is a Node-style callback (`callback(err, profile)`) instead of an api object. */
  callback: boolean;
  timeoutMs: number;
}

/** A published version of an Actions module. */
interface ActionsModule {
  name: string;
  versionId: string;
  code: string;
  modulesDir: string | null;
  secrets: Record<string, string>;
}

/** The api object a trigger offers: methods that record commands, values read by the code, the cache. */
interface ApiShape {
  /** Dotted method names (`idToken.setCustomClaim`); each records `{method, args}` and returns the api. */
  methods: string[];
  /** Methods that answer a value without recording anything (`redirect.canRedirect`). */
  values: Record<string, unknown>;
  /** The trigger's cache as the host holds it: key → record. */
  cache: Record<string, CacheRecord> | null;
  /** post-login's `api.redirect.encodeToken`/`validateToken`: who issues and is the subject of the tokens; at /continue, its state and parameters. */
  tokens?: RedirectTokens;
}

interface RedirectTokens {
  issuer: string;
  subject: string;
  ip: string;
  state?: string;
  params?: Record<string, unknown>;
}

interface CacheRecord {
  value: string;
  expires_at: number;
}

interface Command {
  method: string;
  args: unknown[];
}

interface Result {
  id: number;
  commands: Command[];
  logs: string;
  value?: unknown;
  error?: { name: string; message: string; stack?: string; code?: string };
}

/** Console output kept per run (the service keeps 256 KB). */
const LOG_LIMIT = 256 * 1024;
/** Cache bounds of the service's runtime (actions-wire-notes §2.2). */
const CACHE_KEY_BYTES = 64;
const CACHE_VALUE_BYTES = 4096;
const CACHE_ENTRIES = 20;
const CACHE_DEFAULT_TTL_MS = 15 * 60 * 1000;
const CACHE_MAX_TTL_MS = 24 * 60 * 60 * 1000;

interface Options {
  /** CIDR ranges beyond the public internet the code may connect to (GATEHOUSE_OUTBOUND_ALLOW). */
  allow: string[];
}

const options: Options = JSON.parse(process.argv[2] ?? '{"allow":[]}') as Options;
const write = process.stdout.write.bind(process.stdout);

// ---------------------------------------------------------------------------------------------
// Outbound connections: public addresses only, as for every other outbound call of tenants
// (src/platform/http/outbound-guard.ts), checked on the address connected to (after the lookup).
// A seat belt inside the process; the operator's network policy is the boundary.

const refused = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) refused.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001::', 32], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  refused.addSubnet(address, prefix, 'ipv6');
}
const allowed = new net.BlockList();
for (const cidr of options.allow) {
  const [address = '', prefix = ''] = cidr.split('/');
  const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
  allowed.addSubnet(address, Number(prefix), family);
}

function mayConnect(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  const family = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
  return !refused.check(ip, family) || allowed.check(ip, family);
}

function outboundRefused(host: string, address: string): Error {
  const error = new Error(`connect EACCES ${address}: ${host === address ? 'it' : `${host} resolves to an address that`} is not public; the server's operator allows other ranges with GATEHOUSE_OUTBOUND_ALLOW`) as NodeJS.ErrnoException;
  error.code = 'EACCES';
  return error;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
type Lookup = (host: string, opts: dns.LookupOptions, callback: LookupCallback) => void;

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  // Node's own callers pass the normalised [options, callback] pair as the first argument.
  const first = Array.isArray(args[0]) ? (args[0][0] as unknown) : args[0];
  const opts: { path?: string; host?: string; port?: number; lookup?: Lookup } =
    typeof first === 'object' && first !== null ? (first as object) : typeof first === 'string' && !/^\d+$/.test(first) ? { path: first } : {};
  if (opts.path !== undefined) {
    process.nextTick(() => this.destroy(outboundRefused(String(opts.path), 'a local socket')));
    return this;
  }
  const host = opts.host ?? (typeof args[1] === 'string' ? args[1] : 'localhost');
  if (net.isIP(host)) {
    if (!mayConnect(host)) {
      process.nextTick(() => this.destroy(outboundRefused(host, host)));
      return this;
    }
  } else if (typeof first === 'object' && first !== null) {
    const inner: Lookup = opts.lookup ?? (dns.lookup as unknown as Lookup);
    opts.lookup = (name, lookupOptions, callback) =>
      inner(name, lookupOptions, (error, address, family) => {
        if (error) return callback(error, address, family);
        const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
        const bad = addresses.find((a) => !mayConnect(a));
        if (bad !== undefined) return callback(outboundRefused(name, bad), address, family);
        callback(null, address, family);
      });
  } else {
    process.nextTick(() => this.destroy(outboundRefused(host, host)));
    return this;
  }
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;

// ---------------------------------------------------------------------------------------------
// Console: captured per run, bounded.

interface Run {
  logs: string[];
  size: number;
  truncated: boolean;
}
const currentRun = new AsyncLocalStorage<Run>();
let lastRun: Run = { logs: [], size: 0, truncated: false };

function record(...items: unknown[]): void {
  const run = currentRun.getStore() ?? lastRun;
  if (run.truncated) return;
  const line = util.format(...items) + '\n';
  if (run.size + line.length > LOG_LIMIT) {
    run.logs.push(line.slice(0, Math.max(0, LOG_LIMIT - run.size)));
    run.truncated = true;
    run.size = LOG_LIMIT;
    return;
  }
  run.logs.push(line);
  run.size += line.length;
}

const capturedConsole = { log: record, info: record, warn: record, error: record, debug: record, trace: record, dir: (item: unknown) => record(util.inspect(item)) };
Object.assign(console, capturedConsole);

// ---------------------------------------------------------------------------------------------
// Loading code as the service's runtime does (actions-wire-notes §2.1).

interface LoadedModule {
  exports: Record<string, unknown>;
  error?: unknown;
}
const modules = new Map<string, LoadedModule>();
/** At most this many compiled modules are kept; the oldest is dropped (a version no longer bound). */
const MODULE_CACHE = 64;

/** The prefix under which an action requires an Actions module, as the service's runtime: `require('actions:<name>')`. */
const MODULE_PREFIX = 'actions:';

/**
 * A `require` that answers `actions:<name>` with the module version the
 * action uses (compiled once per version, with its own `require` over its own
 * dependencies, and a pseudo-global `actions` holding its `secrets`), and
 * anything else as Node's `require` from `filename` does.
 */
function requireFor(filename: string, shared: readonly ActionsModule[]): NodeJS.Require {
  const real = createRequire(filename);
  const wrapped = function require(id: string): unknown {
    if (typeof id === 'string' && id.startsWith(MODULE_PREFIX)) {
      const name = id.slice(MODULE_PREFIX.length);
      const found = shared.find((m) => m.name === name);
      if (!found) throw Object.assign(new Error(`Cannot find module '${id}': the action uses no module named "${name}"`), { code: 'MODULE_NOT_FOUND' });
      const loaded = loadShared(found, shared);
      if (loaded.error !== undefined) throw loaded.error;
      return loaded.exports;
    }
    return real(id);
  } as NodeJS.Require;
  wrapped.resolve = real.resolve;
  wrapped.cache = real.cache;
  wrapped.main = real.main;
  wrapped.extensions = real.extensions;
  return wrapped;
}

/** Compiles CommonJS code as the service's runtime does; `extra` are further parameters of the wrapper. */
function compile(code: string, filename: string, base: string, shared: readonly ActionsModule[], extra: Record<string, unknown> = {}, loading?: (loaded: LoadedModule) => void): LoadedModule {
  const module = { exports: {} as Record<string, unknown>, filename, id: filename, loaded: false };
  const loaded: LoadedModule = { exports: module.exports };
  // Known before its code runs, so that a module it requires that requires it back gets these exports, as in Node's cycles.
  loading?.(loaded);
  try {
    const wrapper = vm.compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname', ...Object.keys(extra)], { filename });
    wrapper.call(module.exports, module.exports, requireFor(filename, shared), module, filename, base, ...Object.values(extra));
    module.loaded = true;
    loaded.exports = module.exports;
  } catch (error) {
    loaded.error = error;
  }
  return loaded;
}

const sharedModules = new Map<string, LoadedModule>();

/** A module version, compiled on its first require and kept (a version never changes); a module that throws at load throws on every require. */
function loadShared(found: ActionsModule, shared: readonly ActionsModule[]): LoadedModule {
  const cached = sharedModules.get(found.versionId);
  if (cached) return cached;
  const base = found.modulesDir ?? process.cwd();
  const filename = path.join(base, `actions-module-${found.name.replace(/[^A-Za-z0-9_.-]/g, '_')}.js`);
  if (sharedModules.size >= MODULE_CACHE) sharedModules.delete(sharedModules.keys().next().value as string);
  // Cached while it loads (the same exports object its code fills), so two modules requiring each other end as Node's cycles do.
  return compile(found.code, filename, base, shared, { actions: Object.freeze({ secrets: Object.freeze({ ...found.secrets }) }) }, (loading) => sharedModules.set(found.versionId, loading));
}

function load(invocation: Invocation): LoadedModule {
  const cached = modules.get(invocation.key);
  if (cached) return cached;
  const base = invocation.modulesDir ?? process.cwd();
  const filename = path.join(base, `${invocation.key.slice(0, 24)}.js`);
  const loaded = compile(invocation.code, filename, base, invocation.modules ?? []);
  if (modules.size >= MODULE_CACHE) modules.delete(modules.keys().next().value as string);
  modules.set(invocation.key, loaded);
  return loaded;
}

function byteLength(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/** The api object: each listed method records a command; `cache` answers from the host's copy. */
function apiFor(shape: ApiShape, commands: Command[]): Record<string, unknown> {
  const api: Record<string, unknown> = {};
  const at = (dotted: string): [Record<string, unknown>, string] => {
    const parts = dotted.split('.');
    let node = api;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    return [node, parts[parts.length - 1]!];
  };
  for (const method of shape.methods) {
    const [node, name] = at(method);
    node[name] = (...args: unknown[]) => {
      if (method.endsWith('.setCustomClaim') && args[0] === 'scope') throw new Error('The "scope" claim cannot be set.');
      commands.push({ method, args: JSON.parse(JSON.stringify(args, (_k, v: unknown) => (v === undefined ? null : v))) as unknown[] });
      return api;
    };
  }
  for (const [method, value] of Object.entries(shape.values)) {
    const [node, name] = at(method);
    node[name] = () => value;
  }
  if (shape.tokens) {
    const [node] = at('redirect.encodeToken');
    Object.assign(node, redirectTokens(shape.tokens));
  }
  if (shape.cache) {
    const cache = shape.cache;
    const live = (key: string): CacheRecord | undefined => {
      const entry = cache[key];
      return entry && entry.expires_at > Date.now() ? entry : undefined;
    };
    api.cache = {
      get: (key: string) => live(String(key)),
      set: (key: string, value: string, setOptions?: { ttl?: number; expires_at?: number }) => {
        key = String(key);
        value = String(value);
        if (byteLength(key) > CACHE_KEY_BYTES) return { type: 'error', code: 'CacheKeySizeExceeded' };
        if (byteLength(value) > CACHE_VALUE_BYTES) return { type: 'error', code: 'CacheValueSizeExceeded' };
        const now = Date.now();
        const expires = setOptions?.expires_at ?? now + Math.min(setOptions?.ttl ?? CACHE_DEFAULT_TTL_MS, CACHE_MAX_TTL_MS);
        if (expires <= now) return { type: 'error', code: 'ItemAlreadyExpired' };
        if (!(key in cache) && Object.keys(cache).length >= CACHE_ENTRIES) return { type: 'error', code: 'CacheEntryCountExceeded' };
        const entry = { value, expires_at: Math.min(expires, now + CACHE_MAX_TTL_MS) };
        cache[key] = entry;
        commands.push({ method: 'cache.set', args: [key, entry.value, entry.expires_at] });
        return { type: 'success', record: entry };
      },
      delete: (key: string) => {
        key = String(key);
        const entry = cache[key];
        delete cache[key];
        commands.push({ method: 'cache.delete', args: [key] });
        return { type: 'success', record: entry };
      },
    };
  }
  return api;
}

// ---------------------------------------------------------------------------------------------
// The session tokens of the redirect protocol (actions-wire-notes §2.3): HS256 under a secret the
// action gives, as the service's runtime makes and checks them. The runner imports no package (its
// permission model lets it read only itself), so the one algorithm is written here on node:crypto's
// HMAC: the header is fixed on signing and must be exactly HS256 on checking, the signature is
// compared in constant time, and only then is the payload read.

const TOKEN_HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function hs256(secret: string, input: string): Buffer {
  return createHmac('sha256', secret).update(input).digest();
}

function tokenSecret(options: unknown, what: string): string {
  const secret = (options as { secret?: unknown } | null)?.secret;
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError(`${what}: "secret" must be a non-empty string.`);
  return secret;
}

function redirectTokens(tokens: RedirectTokens): Record<string, unknown> {
  const invalid = (reason: string) => new Error(`The session token is invalid: ${reason}`);
  return {
    encodeToken(options: { secret?: unknown; expiresInSeconds?: unknown; payload?: unknown }) {
      const secret = tokenSecret(options, 'encodeToken');
      const lifetime = options.expiresInSeconds ?? 900;
      if (typeof lifetime !== 'number' || !Number.isFinite(lifetime) || lifetime <= 0) throw new TypeError('encodeToken: "expiresInSeconds" must be a positive number.');
      const payload = options.payload ?? {};
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new TypeError('encodeToken: "payload" must be an object.');
      const iat = Math.floor(Date.now() / 1000);
      const body = Buffer.from(JSON.stringify({ iat, iss: tokens.issuer, sub: tokens.subject, exp: iat + Math.floor(lifetime), ip: tokens.ip, ...payload })).toString('base64url');
      return `${TOKEN_HEADER}.${body}.${hs256(secret, `${TOKEN_HEADER}.${body}`).toString('base64url')}`;
    },
    validateToken(options: { secret?: unknown; tokenParameterName?: unknown }) {
      const secret = tokenSecret(options, 'validateToken');
      const name = typeof options.tokenParameterName === 'string' ? options.tokenParameterName : 'session_token';
      const token = tokens.params?.[name];
      if (typeof token !== 'string' || token.length === 0) throw new Error(`There is no parameter called '${name}' available in either the POST body or query string.`);
      const parts = token.split('.');
      if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) throw invalid('jwt malformed');
      const [header, body, signature] = parts as [string, string, string];
      let alg: unknown;
      try {
        alg = (JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg;
      } catch {
        throw invalid('jwt malformed');
      }
      if (alg !== 'HS256') throw invalid('invalid algorithm');
      const expected = hs256(secret, `${header}.${body}`);
      const given = Buffer.from(signature, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('invalid signature');
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
      } catch {
        throw invalid('jwt malformed');
      }
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid('jwt malformed');
      if (typeof payload.exp !== 'number' || payload.exp <= Date.now() / 1000) throw invalid('jwt expired');
      if (tokens.state === undefined || payload.state !== tokens.state) throw invalid('state mismatch');
      if (payload.sub !== tokens.subject) throw invalid('subject mismatch');
      if (payload.iss !== tokens.issuer) throw invalid('issuer mismatch');
      return payload;
    },
  };
}

function describe(error: unknown): NonNullable<Result['error']> {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { name: error.name, message: error.message, stack: error.stack?.slice(0, 4096), ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: typeof error === 'string' ? error : util.inspect(error, { depth: 2 }).slice(0, 1024) };
}

async function execute(invocation: Invocation): Promise<Result> {
  const run: Run = { logs: [], size: 0, truncated: false };
  lastRun = run;
  const commands: Command[] = [];
  const finish = (extra: Partial<Result>): Result => ({ id: invocation.id, commands, logs: run.logs.join(''), ...extra });
  return currentRun.run(run, async () => {
    try {
      const loaded = load(invocation);
      if (loaded.error !== undefined) throw loaded.error;
      const fn = loaded.exports[invocation.handler];
      if (typeof fn !== 'function') throw new TypeError(`The code exports no "${invocation.handler}" function.`);
      if (invocation.callback) {
        const value = await new Promise((resolve, reject) => {
          const callback = (error: unknown, result?: unknown) => (error ? reject(error instanceof Error ? error : Object.assign(new Error(String((error as { message?: unknown }).message ?? error)), { name: 'Error' })) : resolve(result));
          (fn as (...a: unknown[]) => unknown)(...invocation.args, callback);
        });
        return finish({ value: value === undefined ? null : JSON.parse(JSON.stringify(value)) });
      }
      if (fn.constructor.name !== 'AsyncFunction') {
        throw new TypeError(`Invalid function signature for the "${invocation.handler}" handler. Use "exports.${invocation.handler} = async function(event, api) { }" as the signature.`);
      }
      const api = invocation.api ? apiFor(invocation.api, commands) : {};
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error(`Script execution time exceeded (${invocation.timeoutMs} ms)`), { name: 'TimeoutError' })), invocation.timeoutMs);
      });
      try {
        await Promise.race([(fn as (...a: unknown[]) => Promise<unknown>)(...invocation.args, api), timeout]);
      } finally {
        clearTimeout(timer);
      }
      return finish({});
    } catch (error) {
      return finish({ error: describe(error) });
    }
  });
}

process.on('uncaughtException', (error) => record('Uncaught exception:', error));
process.on('unhandledRejection', (error) => record('Unhandled rejection:', error));
// The host went away: nothing is left to answer.
process.stdin.on('end', () => process.exit(0));

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue: Promise<void> = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    const invocation = JSON.parse(line) as Invocation;
    const result = await execute(invocation);
    let text: string;
    try {
      text = JSON.stringify(result);
    } catch (error) {
      text = JSON.stringify({ id: invocation.id, commands: [], logs: '', error: describe(error) });
    }
    write(text + '\n');
  });
});
write(JSON.stringify({ ready: true }) + '\n');
