/**
 * Runs a trigger's bound actions (actions-wire-notes §2.2): in the bindings'
 * order, each in the tenant's sandbox process (src/platform/sandbox/), all of
 * them within one wall-clock limit (20 s by default). Each action answers the
 * commands it recorded; the trigger module (./triggers/) validates each and
 * applies it to the trigger's outcome (refusing what the service refuses),
 * and says when the flow stops (a deny, a redirect): later actions do not run.
 *
 * An action that throws, times out or is stopped ends the trigger with that
 * error; the caller answers as its flow does (a login: `access_denied` with
 * the message). Every run with an error is a tenant log event
 * `actions_execution_failed` naming the execution id, and each execution is
 * recorded (results, bounded logs; never secrets) when a recorder is given.
 */
import type { Logger } from 'pino';
import { isoAt } from '../../platform/clock.js';
import { EXECUTION_RETENTION_MS, newExecutionId } from '../actions/executions.js';
import type { ActionExecutionRow } from '../actions/rows.js';
import type { SandboxCommand, SandboxResult, SandboxRun } from '../../platform/sandbox/pool.js';
import type { TenantLogs } from '../logs/tenant-logs.js';
import { ActionCommandError, type TriggerId, type TriggerModule } from './triggers/trigger.js';
import type { ActionSource, BoundActionLike } from './bound-action.js';

export type { ActionSource, BoundActionLike } from './bound-action.js';

/** The sandbox: runs code for a tenant until `deadline` (src/platform/sandbox/pool.ts). */
export interface SandboxRunner {
  run(tenantId: string, run: SandboxRun, deadline: number): Promise<SandboxResult>;
}

/** One action's part of an execution. */
export interface ActionResult {
  action_name: string;
  action_id: string;
  version_id: string;
  error: { id: string; msg: string; url: string } | null;
  started_at: string;
  ended_at: string;
  logs: string;
}

export interface Execution {
  id: string;
  trigger_id: string;
  status: 'final' | 'partial' | 'canceled';
  results: ActionResult[];
  created_at: string;
  updated_at: string;
}

/** Keeps executions (GET /api/v2/actions/executions/{id}). */
export interface ExecutionRecorder {
  recordExecution(tenantId: string, execution: Execution): Promise<void>;
}

export interface ActionsRuntimeContext {
  readonly logger: Logger;
  readonly tenantLogs: TenantLogs;
  readonly now: () => number;
}

/** Why a trigger failed: the action's error, as its flow answers it. */
export interface TriggerFailure {
  actionName: string;
  name: string;
  message: string;
}

export interface TriggerRun<O> {
  outcome: O;
  /** Set when actions ran. */
  executionId?: string;
  failure?: TriggerFailure;
}

/** The most commands one action may answer, and their size. */
const MAX_COMMANDS = 1000;
const MAX_COMMANDS_BYTES = 512 * 1024;
/** The execution record keeps this much of an action's console output (the service keeps 256 characters per action in its logs). */
const EXECUTION_LOGS_MAX = 64 * 1024;
/** Cache entries kept per tenant and trigger, in this process (reads across executions are not guaranteed, as in the service). */
const CACHE_TRIGGERS_MAX = 10_000;



export class ActionsRuntime {
  private readonly caches = new Map<string, Record<string, { value: string; expires_at: number }>>();

  constructor(
    private readonly ctx: ActionsRuntimeContext,
    private readonly sandbox: SandboxRunner,
    private source: ActionSource,
    private readonly timeoutMs: number,
    private readonly recorder?: ExecutionRecorder,
  ) {}

  /** Where bound actions come from, once the composition root has built it. */
  useSource(source: ActionSource): void {
    this.source = source;
  }

  /** The actions bound to a trigger (none: the flow goes on as without actions, at the cost of this lookup). */
  bound(tenantId: string, triggerId: TriggerId): Promise<BoundActionLike[]> {
    return this.source.boundActions(tenantId, triggerId);
  }

  /** Runs `trigger` for `input`; `actions` when the caller already listed them. */
  async run<I, O>(tenantId: string, trigger: TriggerModule<I, O>, input: I, options: { actions?: BoundActionLike[]; handler?: string; from?: number; outcome?: O } = {}): Promise<TriggerRun<O>> {
    const actions = options.actions ?? (await this.source.boundActions(tenantId, trigger.id));
    const outcome = options.outcome ?? trigger.start(input);
    if (actions.length === 0) return { outcome };
    const id = newExecutionId();
    const created = new Date(this.ctx.now()).toISOString();
    const deadline = Date.now() + this.timeoutMs;
    const results: ActionResult[] = [];
    const cacheKey = `${tenantId}\0${trigger.id}`;
    let failure: TriggerFailure | undefined;
    const event = trigger.event(input);
    for (const action of actions.slice(options.from ?? 0)) {
      const started = new Date(this.ctx.now()).toISOString();
      const cache = this.cacheOf(cacheKey);
      const result = await this.sandbox.run(
        tenantId,
        {
          code: action.code,
          modulesDir: action.modulesDir,
          modules: action.modules,
          handler: options.handler ?? trigger.handler,
          args: [{ ...event, secrets: action.secrets }],
          api: { methods: [...trigger.methods], values: trigger.values?.(input) ?? {}, cache, ...(trigger.tokens && { tokens: trigger.tokens(input) }) },
        },
        deadline,
      );
      let error = result.error;
      if (!error) {
        try {
          this.apply(trigger, outcome, input, result.commands, cacheKey, action);
        } catch (refused) {
          error = { name: 'Error', message: refused instanceof ActionCommandError ? refused.message : 'The action answered commands that could not be applied.' };
        }
      }
      results.push({
        action_name: action.name,
        action_id: action.actionId,
        version_id: action.versionId,
        error: error ? { id: error.name, msg: error.message.slice(0, 1024), url: '' } : null,
        started_at: started,
        ended_at: new Date(this.ctx.now()).toISOString(),
        logs: result.logs.slice(0, EXECUTION_LOGS_MAX),
      });
      if (error) {
        failure = { actionName: action.name, name: error.name, message: error.message.slice(0, 1024) };
        this.ctx.tenantLogs.record(tenantId, {
          type: 'actions_execution_failed',
          description: `${action.name}: ${error.message}`.slice(0, 500),
          details: { execution_id: id, trigger_id: trigger.id, action_name: action.name, action_id: action.actionId, error: { name: error.name, message: error.message.slice(0, 500) } },
        });
        break;
      }
      if (trigger.stops?.(outcome)) break;
    }
    if (this.recorder) {
      const execution: Execution = { id, trigger_id: trigger.id, status: failure ? 'partial' : 'final', results, created_at: created, updated_at: new Date(this.ctx.now()).toISOString() };
      await this.recorder.recordExecution(tenantId, execution).catch((err: unknown) => this.ctx.logger.warn({ err, executionId: id }, 'could not record an action execution'));
    }
    return { outcome, executionId: id, ...(failure && { failure }) };
  }

  /** Runs one action's code on a given event, applying nothing (the Management API's test). */
  test<I, O>(tenantId: string, trigger: TriggerModule<I, O>, action: Pick<BoundActionLike, 'code' | 'modulesDir' | 'secrets' | 'modules'>, event: Record<string, unknown>): Promise<TestRun> {
    return testAction(this.sandbox, tenantId, trigger, action, event, this.timeoutMs);
  }

  /** Runs an asynchronous trigger after the fact: its outcome and errors never reach the flow. */
  runDetached<I, O>(tenantId: string, trigger: TriggerModule<I, O>, input: I): void {
    void this.run(tenantId, trigger, input).catch((err: unknown) => this.ctx.logger.warn({ err, trigger: trigger.id }, 'an asynchronous trigger failed'));
  }

  private apply<I, O>(trigger: TriggerModule<I, O>, outcome: O, input: I, commands: SandboxCommand[], cacheKey: string, action: BoundActionLike): void {
    if (commands.length > MAX_COMMANDS) throw new ActionCommandError(`The action made more than ${MAX_COMMANDS} api calls.`);
    if (Buffer.byteLength(JSON.stringify(commands), 'utf8') > MAX_COMMANDS_BYTES) throw new ActionCommandError('The api calls of the action are too large.');
    for (const command of commands) {
      if (typeof command?.method !== 'string' || !Array.isArray(command.args)) throw new ActionCommandError('The action answered a malformed command.');
      if (command.method === 'cache.set' || command.method === 'cache.delete') {
        this.applyCache(cacheKey, command);
        continue;
      }
      if (!trigger.methods.includes(command.method)) throw new ActionCommandError(`api.${command.method} is not available in the ${trigger.id} trigger.`);
      trigger.apply(outcome, command, input, action);
    }
  }

  private cacheOf(key: string): Record<string, { value: string; expires_at: number }> {
    const now = Date.now();
    // Without a prototype: a cache key an action names (`__proto__`, `constructor`) is only ever its own entry.
    const cache = this.caches.get(key) ?? (Object.create(null) as Record<string, { value: string; expires_at: number }>);
    for (const [name, entry] of Object.entries(cache)) if (entry.expires_at <= now) delete cache[name];
    return cache;
  }

  /** The sandbox checked the bounds; checked again here, as the process is not trusted. */
  private applyCache(key: string, command: SandboxCommand): void {
    const cache = this.cacheOf(key);
    const [name, value, expiresAt] = command.args;
    if (typeof name !== 'string' || Buffer.byteLength(name) > 64) return;
    if (command.method === 'cache.delete') delete cache[name];
    else if (typeof value === 'string' && Buffer.byteLength(value) <= 4096 && typeof expiresAt === 'number' && (name in cache || Object.keys(cache).length < 20)) {
      cache[name] = { value, expires_at: Math.min(expiresAt, Date.now() + 24 * 3600 * 1000) };
    }
    if (!this.caches.has(key) && this.caches.size >= CACHE_TRIGGERS_MAX) this.caches.delete(this.caches.keys().next().value as string);
    this.caches.set(key, cache);
  }
}

/** The stored form of an execution (GET /api/v2/actions/executions/{id}), kept ten days. */
export function executionRow(tenantId: string, execution: Execution): ActionExecutionRow {
  return {
    tenant_id: tenantId,
    id: execution.id,
    trigger_id: execution.trigger_id,
    status: execution.status,
    results: execution.results.map(({ action_name, error, started_at, ended_at, logs }) => ({ action_name, ...(error && { error }), started_at, ended_at, logs })),
    created_at: execution.created_at,
    updated_at: execution.updated_at,
    expires_at: isoAt(Date.parse(execution.created_at) + EXECUTION_RETENTION_MS),
  };
}

/** What `POST /api/v2/actions/actions/{id}/test` answers: the run of the draft on a given event. */
export interface TestRun {
  commands: { method: string; args: unknown[] }[];
  logs: string;
  error?: { name: string; message: string; stack?: string };
  durationMs: number;
}

/** Runs one action's code on an event as given (its secrets added), in the tenant's sandbox; nothing is applied. */
export function testAction<I, O>(sandbox: SandboxRunner, tenantId: string, trigger: TriggerModule<I, O>, action: Pick<BoundActionLike, 'code' | 'modulesDir' | 'secrets' | 'modules'>, event: Record<string, unknown>, timeoutMs: number): Promise<TestRun> {
  return sandbox.run(
    tenantId,
    { code: action.code, modulesDir: action.modulesDir, modules: action.modules, handler: trigger.handler, args: [{ ...event, secrets: action.secrets }], api: { methods: [...trigger.methods], values: {}, cache: {} } },
    Date.now() + timeoutMs,
  );
}
