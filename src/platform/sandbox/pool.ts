/**
 * The pool of sandbox processes that run tenants' code (Actions, connection
 * scripts): never in the server's process (docs/actions.md, "Runtime").
 *
 * - One pool of processes per tenant, never shared between tenants: started
 *   on demand, reused, at most `processesPerTenant` each and `processes` in
 *   all (an idle process of another tenant is stopped to make room; else the
 *   run waits, within its deadline).
 * - Each process is `process.execPath` running ./actions-runner.ts, as the
 *   unprivileged user `GATEHOUSE_ACTIONS_USER` (uid/gid of the spawn), with an
 *   empty environment, its working directory an empty folder of its own,
 *   `--max-old-space-size`, and Node's permission model allowing reads of the
 *   runner and the dependency folders only (no child process, worker or
 *   addon). It reaches neither the data directory (0700, the server's user),
 *   nor the server process (/proc/<pid>/environ is readable by the same user
 *   only), nor the database (no credentials; loopback and private addresses
 *   refused to its sockets).
 * - A run past its deadline kills the process (SIGKILL to its process group)
 *   and the next run starts a new one. A process that dies (memory cap) is
 *   replaced the same way.
 *
 * A run answers the commands the code recorded; the caller validates and
 * applies them. Lines from the process are bounded (a process that sends a
 * longer one is killed), so the server never buffers more than that.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Config } from '../config.js';
import type { OutboundPolicy } from '../http/outbound-guard.js';

export interface SandboxSettings {
  /** uid and gid the processes run as; undefined: the server's own (see docs: then the operator must isolate it). */
  user: { uid: number; gid: number } | undefined;
  memoryMb: number;
  /** Wall-clock limit of one trigger's runs. */
  timeoutMs: number;
  processes: number;
  processesPerTenant: number;
  /** CIDR ranges beyond the public internet that code may connect to. */
  outboundAllow: string[];
  /** A process idle this long is stopped. */
  idleMs: number;
}

export interface ApiShape {
  methods: string[];
  values: Record<string, unknown>;
  cache: Record<string, { value: string; expires_at: number }> | null;
  /** What `api.redirect.encodeToken`/`validateToken` work with (./actions-runner.ts `RedirectTokens`). */
  tokens?: { issuer: string; subject: string; ip: string; state?: string; params?: Record<string, unknown> };
}

export interface SandboxCommand {
  method: string;
  args: unknown[];
}

export interface SandboxError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}

/** An Actions module the code may `require('actions:<name>')`. */
export interface SandboxModule {
  name: string;
  /** The published version's id: the runner compiles a version once. */
  versionId: string;
  code: string;
  modulesDir: string | null;
  secrets: Record<string, string>;
}

export interface SandboxRun {
  code: string;
  modulesDir: string | null;
  /** Actions modules the code uses (none for a connection script). */
  modules?: SandboxModule[];
  handler: string;
  args: unknown[];
  /** An Action's api object; null for a connection script (which takes a callback). */
  api: ApiShape | null;
}

export interface SandboxResult {
  commands: SandboxCommand[];
  logs: string;
  /** What a connection script passed to its callback. */
  value?: unknown;
  error?: SandboxError;
  durationMs: number;
}

/** The longest line a process may send (a result: commands and logs, both bounded inside). */
const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Time past the deadline the runner's own timeout has to answer before the host kills the process. */
const KILL_GRACE_MS = 500;
const STDERR_KEEP = 8 * 1024;

export class SandboxTimeout extends Error {}

/** The runner beside this module; under tsx (tests) the TypeScript source, run by Node's type stripping. */
function runnerFile(): string {
  const self = new URL(import.meta.url);
  return new URL(self.pathname.endsWith('.ts') ? './actions-runner.ts' : './actions-runner.js', self).pathname;
}

/** Whether any user may reach and execute (or read) `file`: every folder above it searchable by others, the file readable and executable by them. */
function openToOthers(file: string): boolean {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) return false;
    if (dir === path.dirname(dir)) break;
  }
  return (fs.statSync(file).mode & 0o005) === 0o005;
}

let executables: { node: string; runner: string } | undefined;
/**
 * The Node binary and the runner as the sandbox's user can run them. Where
 * either sits in a folder that user cannot enter (Node installed under a
 * private home or a 0700 temporary folder, the server under /root), both are
 * copied once into a root-owned 0755 folder of this process (the binary
 * keeps its bytes; nothing else of the server's is copied).
 */
function sandboxExecutables(user: SandboxSettings['user']): { node: string; runner: string } {
  if (executables) return executables;
  const node = fs.realpathSync(process.execPath);
  const runner = runnerFile();
  if (!user || (openToOthers(node) && openToOthers(runner))) return (executables = { node, runner });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-action-node-'));
  fs.chmodSync(folder, 0o755);
  const copies = { node: path.join(folder, 'node'), runner: path.join(folder, path.basename(runner)) };
  fs.copyFileSync(node, copies.node);
  fs.copyFileSync(runner, copies.runner);
  fs.chmodSync(copies.node, 0o755);
  fs.chmodSync(copies.runner, 0o644);
  return (executables = copies);
}

let prlimitPath: string | null | undefined;
/** util-linux's prlimit, when installed. */
function prlimitCommand(): string | null {
  if (prlimitPath === undefined) prlimitPath = ['/usr/bin/prlimit', '/bin/prlimit'].find((file) => fs.existsSync(file)) ?? null;
  return prlimitPath;
}

/** The permission model's flag: `--permission` from Node 22.13/23.5, `--experimental-permission` before. */
function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
}

interface Pending {
  resolve(result: SandboxResult): void;
  reject(error: Error): void;
  started: number;
  timer: NodeJS.Timeout;
}

class SandboxProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly folder: string;
  readonly readable: Set<string>;
  busy = false;
  dead = false;
  lastUsed = Date.now();
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private buffer = '';
  private stderr = '';
  private readonly ready: Promise<void>;
  private readyReject: (error: Error) => void = () => undefined;

  constructor(
    private readonly settings: SandboxSettings,
    readable: Set<string>,
    private readonly onExit: (process: SandboxProcess) => void,
  ) {
    this.readable = readable;
    this.folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-action-'));
    fs.chmodSync(this.folder, 0o700);
    if (settings.user) fs.chownSync(this.folder, settings.user.uid, settings.user.gid);
    const { node, runner } = sandboxExecutables(settings.user);
    const args = [
      `--max-old-space-size=${settings.memoryMb}`,
      permissionFlag(),
      `--allow-fs-read=${runner}`,
      ...[...readable].map((dir) => `--allow-fs-read=${dir}`),
      '--disable-warning=ExperimentalWarning',
      '--stack-trace-limit=20',
      runner,
      JSON.stringify({ allow: settings.outboundAllow }),
    ];
    // Memory outside the heap (buffers) is capped by the data segment's limit where util-linux's prlimit is there.
    const prlimit = prlimitCommand();
    const dataBytes = (settings.memoryMb * 2 + 768) * 1024 * 1024;
    const [command, commandArgs] = prlimit ? [prlimit, [`--data=${dataBytes}`, '--', node, ...args]] : [node, args];
    this.child = spawn(command, commandArgs, {
      cwd: this.folder,
      env: {},
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      ...(settings.user ? { uid: settings.user.uid, gid: settings.user.gid } : {}),
    });
    let readyResolve: () => void = () => undefined;
    this.ready = new Promise((resolve, reject) => {
      readyResolve = resolve;
      this.readyReject = reject;
    });
    const readyReject = (error: Error) => this.readyReject(error);
    this.ready.catch(() => undefined);
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        this.receive(line, readyResolve);
      }
      if (this.buffer.length > MAX_LINE_BYTES) this.kill();
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_KEEP);
    });
    this.child.stdin.on('error', () => this.kill());
    this.child.on('error', (error) => {
      readyReject(error);
      this.exited(error.message);
    });
    this.child.on('close', (code, signal) => {
      readyReject(new Error(`the sandbox process ended before it was ready (${signal ?? code}): ${this.stderr.trim().slice(-500)}`));
      this.exited(signal === 'SIGKILL' ? 'killed' : `exit ${code ?? signal}`);
    });
  }

  private receive(line: string, ready: () => void): void {
    let message: { id?: number; ready?: boolean } & Partial<SandboxResult>;
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return; // the code wrote to stdout itself: not a result
    }
    if (message.ready) return ready();
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id!);
    clearTimeout(pending.timer);
    pending.resolve({
      commands: Array.isArray(message.commands) ? message.commands : [],
      logs: typeof message.logs === 'string' ? message.logs : '',
      ...(message.value !== undefined ? { value: message.value } : {}),
      ...(message.error ? { error: message.error } : {}),
      durationMs: Date.now() - pending.started,
    });
  }

  private exited(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    this.readyReject(new Error(`the sandbox process ended before it was ready (${reason}): ${this.stderr.trim().slice(-500)}`));
    const memory = /heap out of memory|Allocation failed|bad_alloc/i.test(this.stderr);
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.resolve({
        commands: [],
        logs: '',
        error: memory
          ? { name: 'RangeError', message: `The sandbox process ran out of memory (${this.settings.memoryMb} MiB) and was stopped.` }
          : { name: 'Error', message: `The sandbox process ended (${reason}).` },
        durationMs: Date.now() - pending.started,
      });
    }
    fs.rm(this.folder, { recursive: true, force: true }, () => undefined);
    this.onExit(this);
  }

  /** Kills the process (and its group: whatever the code started goes with it); it is out of the pool at once. */
  kill(reason = 'killed'): void {
    if (this.dead) return;
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
    this.exited(reason);
  }

  async run(key: string, run: SandboxRun, timeoutMs: number): Promise<SandboxResult> {
    try {
      await this.ready;
    } catch (error) {
      return { commands: [], logs: '', error: { name: 'Error', message: `The sandbox process could not start: ${(error as Error).message}` }, durationMs: 0 };
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ commands: [], logs: '', error: timeoutError(timeoutMs), durationMs: Date.now() - started });
        this.kill('past its time limit');
      }, timeoutMs + KILL_GRACE_MS);
      this.pending.set(id, { resolve, reject, started, timer });
      const line = JSON.stringify({ id, key, code: run.code, modulesDir: run.modulesDir, modules: run.modules ?? [], handler: run.handler, args: run.args, api: run.api, callback: run.api === null, timeoutMs });
      this.child.stdin.write(line + '\n');
    });
  }
}

function timeoutError(timeoutMs: number): SandboxError {
  return { name: 'TimeoutError', message: `Script execution time exceeded (${timeoutMs} ms)` };
}

interface Waiter {
  tenantId: string;
  readable: string[];
  resolve(process: SandboxProcess): void;
  reject(error: Error): void;
  /** Ends the wait at the run's deadline; cleared once the waiter is served. */
  timer?: NodeJS.Timeout;
}

export class SandboxPool {
  private readonly byTenant = new Map<string, SandboxProcess[]>();
  private readonly waiters: Waiter[] = [];
  private total = 0;
  private closed = false;
  private mirrorRoot: string | undefined;
  private readonly sweeper: NodeJS.Timeout;

  constructor(readonly settings: SandboxSettings) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, Math.min(settings.idleMs, 60_000)));
    this.sweeper.unref();
  }

  /** Runs code for `tenantId` in one of its processes; never throws for what the code does (see `error`). */
  async run(tenantId: string, run: SandboxRun, deadline: number): Promise<SandboxResult> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { commands: [], logs: '', error: timeoutError(this.settings.timeoutMs), durationMs: 0 };
    const modulesDir = run.modulesDir ? this.readableModules(path.resolve(run.modulesDir)) : null;
    const shared = (run.modules ?? []).map((m) => ({ ...m, modulesDir: m.modulesDir ? this.readableModules(path.resolve(m.modulesDir)) : null }));
    const readable = [...new Set([modulesDir, ...shared.map((m) => m.modulesDir)].filter((dir): dir is string => dir !== null))];
    run = { ...run, modulesDir, modules: shared };
    let acquired: SandboxProcess;
    try {
      acquired = await this.acquire(tenantId, readable, remaining);
    } catch (error) {
      if (error instanceof SandboxTimeout) return { commands: [], logs: '', error: timeoutError(this.settings.timeoutMs), durationMs: remaining };
      throw error;
    }
    // The modules are part of the key: the same code using other module versions is compiled apart.
    const key = createHash('sha256').update(run.modulesDir ?? '').update('\0').update(run.code).update('\0').update(shared.map((m) => m.versionId).join(',')).digest('hex');
    try {
      return await acquired.run(key, run, Math.max(1, deadline - Date.now()));
    } finally {
      this.release(acquired);
    }
  }

  /**
   * A folder of installed dependencies as the sandbox's user may read it. Builds live in the data
   * directory (0700, the server's user): each is copied once, by its content-addressed name, into
   * this pool's own folder (root-owned 0755, made fresh at start), whose files keep their modes.
   */
  private readableModules(dir: string): string {
    if (!this.settings.user) return dir;
    this.mirrorRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-action-modules-'));
    fs.chmodSync(this.mirrorRoot, 0o755);
    const copy = path.join(this.mirrorRoot, createHash('sha256').update(dir).digest('hex').slice(0, 40));
    if (!fs.existsSync(copy)) {
      const partial = `${copy}.partial-${process.pid}-${Date.now()}`;
      fs.cpSync(dir, partial, { recursive: true, dereference: false, verbatimSymlinks: true });
      fs.chmodSync(partial, 0o755);
      fs.renameSync(partial, copy);
    }
    return copy;
  }

  /** Processes per tenant now (tests, metrics). */
  processCount(tenantId?: string): number {
    return tenantId === undefined ? this.total : (this.byTenant.get(tenantId)?.filter((p) => !p.dead).length ?? 0);
  }

  /** Process ids of a tenant's processes (tests). */
  pids(tenantId: string): number[] {
    return (this.byTenant.get(tenantId) ?? []).filter((p) => !p.dead).map((p) => p.child.pid!);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    if (this.mirrorRoot) fs.rmSync(this.mirrorRoot, { recursive: true, force: true });
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('the sandbox pool is closed'));
    }
    const all = [...this.byTenant.values()].flat();
    await Promise.all(
      all.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.dead) return resolve();
            p.child.once('close', () => resolve());
            p.kill('the pool closed');
          }),
      ),
    );
  }

  private acquire(tenantId: string, readable: string[], remaining: number): Promise<SandboxProcess> {
    if (this.closed) return Promise.reject(new Error('the sandbox pool is closed'));
    const own = this.byTenant.get(tenantId) ?? [];
    const idle = own.find((p) => !p.busy && !p.dead && readable.every((dir) => p.readable.has(dir)));
    if (idle) return Promise.resolve(this.take(idle));
    const idleWithout = own.find((p) => !p.busy && !p.dead);
    if (idleWithout) {
      // An idle process that may not read this version's dependencies: replaced by one that may read both.
      const dirs = new Set([...idleWithout.readable, ...readable]);
      idleWithout.kill();
      this.drop(idleWithout);
      return Promise.resolve(this.take(this.start(tenantId, dirs)));
    }
    if (own.length < this.settings.processesPerTenant && (this.total < this.settings.processes || this.evictIdle(tenantId))) {
      return Promise.resolve(this.take(this.start(tenantId, new Set(readable))));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { tenantId, readable, resolve, reject };
      this.waiters.push(waiter);
      waiter.timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) {
          this.waiters.splice(at, 1);
          reject(new SandboxTimeout());
        }
      }, remaining);
      waiter.timer.unref();
    });
  }

  private take(p: SandboxProcess): SandboxProcess {
    p.busy = true;
    p.lastUsed = Date.now();
    return p;
  }

  private start(tenantId: string, readable: Set<string>): SandboxProcess {
    const p = new SandboxProcess(this.settings, readable, (ended) => {
      this.drop(ended);
      this.serveWaiters();
    });
    const own = this.byTenant.get(tenantId) ?? [];
    own.push(p);
    this.byTenant.set(tenantId, own);
    this.total += 1;
    return p;
  }

  private drop(p: SandboxProcess): void {
    for (const [tenantId, own] of this.byTenant) {
      const at = own.indexOf(p);
      if (at < 0) continue;
      own.splice(at, 1);
      this.total -= 1;
      if (own.length === 0) this.byTenant.delete(tenantId);
      return;
    }
  }

  /** Stops the longest idle process of another tenant to make room; false when none is idle. */
  private evictIdle(tenantId: string): boolean {
    let oldest: SandboxProcess | undefined;
    for (const [owner, own] of this.byTenant) {
      if (owner === tenantId) continue;
      for (const p of own) if (!p.busy && !p.dead && (!oldest || p.lastUsed < oldest.lastUsed)) oldest = p;
    }
    if (!oldest) return false;
    oldest.kill();
    this.drop(oldest);
    return true;
  }

  private release(p: SandboxProcess): void {
    p.busy = false;
    p.lastUsed = Date.now();
    this.serveWaiters();
  }

  private serveWaiters(): void {
    for (let i = 0; i < this.waiters.length; i += 1) {
      const waiter = this.waiters[i]!;
      const own = this.byTenant.get(waiter.tenantId) ?? [];
      const idle = own.find((p) => !p.busy && !p.dead);
      const canStart = own.length < this.settings.processesPerTenant && (this.total < this.settings.processes || this.evictIdle(waiter.tenantId));
      if (!idle && !canStart) continue;
      this.waiters.splice(i, 1);
      i -= 1;
      // Served: its deadline timer would otherwise live on, one per waiting run, for up to the whole time limit.
      clearTimeout(waiter.timer);
      if (idle && waiter.readable.every((dir) => idle.readable.has(dir))) waiter.resolve(this.take(idle));
      else {
        const dirs = new Set([...(idle?.readable ?? []), ...waiter.readable]);
        if (idle) {
          idle.kill();
          this.drop(idle);
        }
        waiter.resolve(this.take(this.start(waiter.tenantId, dirs)));
      }
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const own of this.byTenant.values()) {
      for (const p of [...own]) {
        if (!p.busy && !p.dead && now - p.lastUsed > this.settings.idleMs) {
          p.kill();
          this.drop(p);
        }
      }
    }
  }
}

/**
 * `GATEHOUSE_ACTIONS_USER` as uid and gid: a user name of /etc/passwd, or `uid[:gid]`.
 * Throws with a message for the configuration error.
 */
export function resolveSandboxUser(value: string): { uid: number; gid: number } {
  const numeric = /^(\d+)(?::(\d+))?$/.exec(value);
  if (numeric) return { uid: Number(numeric[1]), gid: Number(numeric[2] ?? numeric[1]) };
  let passwd = '';
  try {
    passwd = fs.readFileSync('/etc/passwd', 'utf8');
  } catch {
    throw new Error(`cannot read /etc/passwd to find the user "${value}": give uid:gid instead`);
  }
  for (const line of passwd.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name === value && uid !== undefined && gid !== undefined) return { uid: Number(uid), gid: Number(gid) };
  }
  throw new Error(`no user "${value}" in /etc/passwd`);
}

/** The pool's settings from the configuration (src/platform/config.ts `actions`, `outbound`). */
export function sandboxSettings(actions: Config['actions'], outbound: OutboundPolicy): SandboxSettings {
  return {
    user: actions.user === undefined ? undefined : resolveSandboxUser(actions.user),
    memoryMb: actions.memoryMb,
    timeoutMs: actions.timeoutMs,
    processes: actions.processes,
    processesPerTenant: actions.processesPerTenant,
    outboundAllow: outbound.allow.map(([address, prefix]) => `${address.toString()}/${prefix}`),
    idleMs: 5 * 60 * 1000,
  };
}
