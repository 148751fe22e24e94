/**
 * Storage of actions, their versions, the triggers' bindings and the
 * executions the runtime records. Implemented by src/storage/kysely/actions.ts.
 */
import type { ActionBindingRow, ActionModuleRef, ActionBuildError, ActionBuildStatus, ActionExecutionRow, ActionModuleRow, ActionModuleVersionRow, ActionRow, ActionVersionRow } from './rows.js';

export type ActionChanges = Partial<
  Pick<ActionRow, 'name' | 'supported_triggers' | 'code' | 'runtime' | 'dependencies' | 'secrets' | 'modules' | 'status' | 'build_key' | 'build_errors' | 'built_at' | 'deployed_version_id' | 'all_changes_deployed' | 'deploy_when_built'>
>;

export interface ActionListFilter {
  /** Actions whose supported trigger is this one. */
  triggerId?: string;
  /** The action of exactly this name. */
  actionName?: string;
  /** Only actions with (true) or without (false) a deployed version. */
  deployed?: boolean;
}

/** The build state a build job sets on the draft (and the versions) whose `build_key` it built. */
export interface BuildOutcome {
  status: ActionBuildStatus;
  build_errors: ActionBuildError[] | null;
  built_at: string | null;
}

export interface ActionStore {
  /** A page of the tenant's actions (by creation, then id) and how many match. */
  list(tenantId: string, filter: ActionListFilter, window: { offset: number; limit: number }): Promise<{ rows: ActionRow[]; total: number }>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<ActionRow | undefined>;
  getByName(tenantId: string, name: string): Promise<ActionRow | undefined>;
  /** A new action; false when the tenant has one of that name already. */
  create(row: ActionRow): Promise<boolean>;
  /** The action after the change; undefined when there is none; 'name_taken' when another action has the new name. */
  update(tenantId: string, id: string, changes: ActionChanges, now: string): Promise<ActionRow | undefined | 'name_taken'>;
  /** Deletes the action with its versions and bindings; true when one was deleted. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /**
   * Records a build's outcome on the tenant's drafts and versions whose
   * `build_key` is `buildKey` and whose status is not final already (a draft
   * changed since holds another key and is left alone); how many drafts changed.
   */
  setBuild(tenantId: string, buildKey: string, outcome: BuildOutcome, now: string): Promise<number>;

  /** Drafts built under `buildKey` that were created with `deploy: true` and wait for it. */
  waitingToDeploy(tenantId: string, buildKey: string): Promise<ActionRow[]>;

  /** A page of an action's versions, newest first, and how many there are. */
  versions(tenantId: string, actionId: string, window: { offset: number; limit: number }): Promise<{ rows: ActionVersionRow[]; total: number }>;
  version(tenantId: string, actionId: string, id: string): Promise<ActionVersionRow | undefined>;
  /** The highest version number of the action, 0 when it has none. */
  lastVersionNumber(tenantId: string, actionId: string): Promise<number>;
  insertVersion(row: ActionVersionRow): Promise<void>;
  /** Deletes the oldest versions of the action beyond `keep`, never `spare` (the deployed one). */
  pruneVersions(tenantId: string, actionId: string, keep: number, spare: string): Promise<void>;
}

/** A binding with its action, as the bindings list answers. */
export interface BoundRow {
  binding: ActionBindingRow;
  action: ActionRow;
}

export interface ActionBindingStore {
  /** A page of a trigger's bindings in execution order, with their actions, and how many there are. */
  list(tenantId: string, triggerId: string, window: { offset: number; limit: number }): Promise<{ rows: BoundRow[]; total: number }>;
  /** Replaces the trigger's whole list with `rows` (in their order). */
  replace(tenantId: string, triggerId: string, rows: ActionBindingRow[]): Promise<void>;
  /** Whether the action is bound to any trigger. */
  isBound(tenantId: string, actionId: string): Promise<boolean>;
  /** The trigger's bindings in order with the deployed version of each bound action (bindings of undeployed actions left out). */
  deployed(tenantId: string, triggerId: string): Promise<{ binding: ActionBindingRow; action: ActionRow; version: ActionVersionRow }[]>;
}

/** Executions of triggers: recorded by the runtime, read by GET /actions/executions/{id}. */
export interface ActionExecutionStore {
  /** Writes (or replaces, by id) an execution. */
  record(row: ActionExecutionRow): Promise<void>;
  /** Writes (or replaces, by id) several executions at once, all or nothing. */
  recordMany(rows: readonly ActionExecutionRow[]): Promise<void>;
  /** The execution, unless it has expired at `now`. */
  get(tenantId: string, id: string, now: string): Promise<ActionExecutionRow | undefined>;
}

export type ActionModuleChanges = Partial<Pick<ActionModuleRow, 'code' | 'dependencies' | 'secrets' | 'build_key' | 'latest_version_id' | 'draft_pending'>>;

/** An action whose draft or deployed version uses a module, and the version it uses. */
export interface ModuleUse {
  action: ActionRow;
  /** The reference in the deployed version (null: only the draft uses the module). */
  deployed: ActionModuleRef | null;
  /** The reference in the draft (null: only the deployed version uses the module). */
  draft: ActionModuleRef | null;
}

/** Actions modules (shared code of actions) and their published versions. */
export interface ActionModuleStore {
  /** A page of the tenant's modules (by creation, then id) and how many there are. */
  list(tenantId: string, window: { offset: number; limit: number }): Promise<{ rows: ActionModuleRow[]; total: number }>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<ActionModuleRow | undefined>;
  getByName(tenantId: string, name: string): Promise<ActionModuleRow | undefined>;
  /** A new module; false when the tenant has one of that name already. */
  create(row: ActionModuleRow): Promise<boolean>;
  /** The module after the change; undefined when there is none. */
  update(tenantId: string, id: string, changes: ActionModuleChanges, now: string): Promise<ActionModuleRow | undefined>;
  /** Deletes the module with its versions; true when one was deleted. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /**
   * Marks the module's draft taken for publishing, only if it is still pending; false when it
   * is not (a concurrent publish took it first). Inside a transaction on PostgreSQL the row
   * stays locked until the commit, so two publishes of one draft never both proceed.
   */
  claimDraft(tenantId: string, id: string, now: string): Promise<boolean>;
  /** A page of the module's versions, newest first, and how many there are. */
  versions(tenantId: string, moduleId: string, window: { offset: number; limit: number }): Promise<{ rows: ActionModuleVersionRow[]; total: number }>;
  version(tenantId: string, moduleId: string, id: string): Promise<ActionModuleVersionRow | undefined>;
  /** The version of this number; undefined when there is none. */
  versionByNumber(tenantId: string, moduleId: string, number: number): Promise<ActionModuleVersionRow | undefined>;
  /** The highest version number of the module, 0 when it has none. */
  lastVersionNumber(tenantId: string, moduleId: string): Promise<number>;
  /** A new version; false when the module has one of that number already (a concurrent publish). */
  insertVersion(row: ActionModuleVersionRow): Promise<boolean>;
  /** Deletes one version of the module (the oldest unused, at the version limit). */
  deleteVersion(tenantId: string, moduleId: string, id: string): Promise<void>;
  /** The tenant's actions whose draft or deployed version uses the module, by creation. */
  uses(tenantId: string, moduleId: string): Promise<ModuleUse[]>;
}
