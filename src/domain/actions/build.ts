/**
 * The build step of an action: its `dependencies` installed by npm into a
 * folder of their own under the data directory, never into Gatehouse's
 * node_modules. A folder is named by the hash of the runtime and the sorted
 * dependency list (`buildKey`), so versions with the same dependencies share
 * one install and a rollback finds its folder still there.
 *
 * npm runs as `npm install --ignore-scripts --no-audit --no-fund --omit=dev`
 * (no package's install script runs) with an environment of its own: PATH,
 * HOME and npm's and the proxy's variables, nothing of Gatehouse's (no master
 * key, no database URL). The registry is GATEHOUSE_ACTIONS_REGISTRY, or the
 * one npm's own configuration names. A build is a job of the durable queue
 * (src/domain/jobs/runner.ts): `pending` when queued, `building` while npm
 * runs, then `built`, or `failed` with npm's reason.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isoAt } from '../../platform/clock.js';
import type { ActionBuildError, ActionDependency } from './rows.js';
import type { ActionStore } from './store.js';

/** The service's builder gives up after 5 minutes (actions-wire-notes §1.3). */
const NPM_TIMEOUT_MS = 5 * 60_000;
/** Marks a folder whose install completed. */
const BUILT_MARKER = '.gatehouse-built';
/** npm's reason, as much of it as a build error keeps. */
const MAX_REASON = 2000;

export function buildKey(runtime: string, dependencies: readonly ActionDependency[]): string {
  const sorted = dependencies.map((d) => [d.name, d.version]).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([runtime, sorted])).digest('hex').slice(0, 40);
}

/** The folder holding the `node_modules` of a build. */
export function buildDirectory(dataDir: string, key: string): string {
  return path.join(dataDir, 'actions', 'builds', key);
}

/** Whether the build of `key` is installed already (its folder holds the marker of a completed install). */
export function isBuilt(dataDir: string, key: string): boolean {
  return fs.existsSync(path.join(buildDirectory(dataDir, key), BUILT_MARKER));
}

/** Variables npm is given from the server's environment: its own and the proxies', nothing else. */
function npmEnvironment(registry: string | undefined, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(PATH|HOME|USERPROFILE|SYSTEMROOT|APPDATA|TMPDIR|TEMP|TMP)$/i.test(name) || /^npm_config_/i.test(name) || /^(https?|no)_proxy$/i.test(name)) env[name] = value;
  }
  // npm run scripts export their own configuration as npm_config_*: a build started from one must not inherit its prefix or global flag.
  for (const name of Object.keys(env)) if (/^npm_config_(prefix|global|location|local_prefix|package_lock_only|dry_run)$/i.test(name)) delete env[name];
  env.npm_config_cache ??= path.join(dataDir, 'actions', 'npm-cache');
  if (registry !== undefined) env.npm_config_registry = registry;
  env.npm_config_update_notifier = 'false';
  return env;
}

/** The lines of npm's output that say why it failed, bounded. */
function npmReason(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => /^npm (error|ERR!)/.test(l) && !/A complete log of this run|^npm (error|ERR!)\s*$/.test(l));
  const reason = (lines.length > 0 ? lines.join('\n') : output.trim()) || 'npm install failed';
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
}

export type InstallOutcome = { ok: true } | { ok: false; reason: string };

/** Installs `dependencies` into the build folder of `key` (at once when it is there already). */
export async function installDependencies(options: { dataDir: string; registry: string | undefined; key: string; dependencies: readonly ActionDependency[] }): Promise<InstallOutcome> {
  const target = buildDirectory(options.dataDir, options.key);
  if (fs.existsSync(path.join(target, BUILT_MARKER))) return { ok: true };
  const work = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  fs.mkdirSync(work, { recursive: true, mode: 0o755 });
  try {
    const manifest = {
      name: 'gatehouse-action-build',
      version: '1.0.0',
      private: true,
      dependencies: Object.fromEntries(options.dependencies.map((d) => [d.name, d.version])),
    };
    fs.writeFileSync(path.join(work, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const run = await runNpm(work, options.registry, options.dataDir);
    if (!run.ok) return run;
    fs.writeFileSync(path.join(work, BUILT_MARKER), `${isoAt(Date.now())}\n`);
    try {
      fs.renameSync(work, target);
    } catch (err) {
      // Another process finished the same build first: its folder stands.
      if (!fs.existsSync(path.join(target, BUILT_MARKER))) throw err;
    }
    return { ok: true };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function runNpm(cwd: string, registry: string | undefined, dataDir: string): Promise<InstallOutcome> {
  const args = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--omit=dev', '--no-save', '--loglevel=error'];
  return new Promise((resolve) => {
    let output = '';
    const child = spawn('npm', args, { cwd, env: npmEnvironment(registry, dataDir), stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const keep = (chunk: Buffer) => {
      if (output.length < 64 * 1024) output += chunk.toString('utf8');
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), NPM_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `npm could not be started: ${err.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true });
      else resolve({ ok: false, reason: signal === 'SIGKILL' ? `npm install did not finish within ${NPM_TIMEOUT_MS / 60_000} minutes` : npmReason(output) });
    });
  });
}

/** What a build job touches. */
export interface ActionBuildContext {
  readonly now: () => number;
  readonly config: { readonly dataDir: string; readonly actionsRegistry: string | undefined };
  readonly stores: { readonly actions: ActionStore };
}

/** The parameters of an `action_build` job. */
export interface ActionBuildParams {
  build_key: string;
  dependencies: ActionDependency[];
}

/** The parameters of an `action_build` job as stored. */
export function actionBuildParams(params: Record<string, unknown>): ActionBuildParams {
  const key = params.build_key;
  const dependencies = params.dependencies;
  if (typeof key !== 'string' || !/^[0-9a-f]{40}$/.test(key) || !Array.isArray(dependencies)) throw new Error('an action_build job without its build key and dependencies');
  return {
    build_key: key,
    dependencies: dependencies.map((d: { name?: unknown; version?: unknown }) => ({ name: String(d.name), version: String(d.version) })),
  };
}

/** Runs one build: the drafts and versions waiting on its key go `building`, then `built` or `failed` with npm's reason. */
export async function runActionBuild(ctx: ActionBuildContext, tenantId: string, params: ActionBuildParams): Promise<InstallOutcome> {
  await ctx.stores.actions.setBuild(tenantId, params.build_key, { status: 'building', build_errors: null, built_at: null }, isoAt(ctx.now()));
  const outcome = await installDependencies({ dataDir: ctx.config.dataDir, registry: ctx.config.actionsRegistry, key: params.build_key, dependencies: params.dependencies });
  const now = isoAt(ctx.now());
  if (outcome.ok) {
    await ctx.stores.actions.setBuild(tenantId, params.build_key, { status: 'built', build_errors: null, built_at: now }, now);
  } else {
    const error: ActionBuildError = { id: 'build_failed', msg: outcome.reason };
    await ctx.stores.actions.setBuild(tenantId, params.build_key, { status: 'failed', build_errors: [error], built_at: null }, now);
  }
  return outcome;
}
