/**
 * Actions in the Management API (docs/actions.md): drafts, their builds,
 * deploys and rollbacks, the triggers' bindings and the executions the
 * runtime records. The shapes follow real traffic (actions-wire-notes §1):
 * timestamps with nanoseconds, lists without `total`/`page` when 0, the
 * deploy's 200 with the new version, secrets written and never read back.
 *
 * A draft without dependencies is built at once (both deploy tools then
 * deploy on their first try); one with dependencies is `pending` until the
 * build job (src/domain/actions/build.ts) installs them, unless a build of the
 * same runtime and dependencies is on disk already.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { buildDirectory, buildKey, type ActionBuildParams } from '../../domain/actions/build.js';
import { deployDraft, draftMatches, NotBuilt, redeployVersion } from '../../domain/actions/deploy.js';
import type { ActionBindingRow, ActionModuleRef, ActionRow, ActionVersionRow } from '../../domain/actions/rows.js';
import { sealActionSecrets } from '../../domain/actions/secrets.js';
import type { ActionBindingStore, ActionChanges, ActionExecutionStore, ActionModuleStore, ActionStore } from '../../domain/actions/store.js';
import { DEFAULT_RUNTIME, triggerById, TRIGGERS, RUNTIMES } from '../../domain/actions/triggers.js';
import { newJobRow, type JobStore } from '../../domain/jobs/store.js';
import type { UnitOfWork } from '../../domain/stores.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { managementErrors } from '../../platform/http/errors.js';
import type {
  ActionResponse,
  ActionVersionResponse,
  BindingResponse,
  CreateActionBody,
  DeployVersionBody,
  ExecutionResponse,
  ListActionsQuery,
  ModuleReferenceBody,
  PageQuery,
  UpdateActionBody,
  UpdateBindingsBody,
} from './schema.js';

/** Actions a tenant may have (the service's entity limit). */
export const MAX_ACTIONS = 100;

/** RFC 3339 with nanoseconds, as the service writes its Actions timestamps. */
function wireTime(iso: string): string {
  return /\.\d{3}Z$/.test(iso) ? iso.replace(/Z$/, '000000Z') : iso;
}

const notFound = () => managementErrors.notFound('That action does not exist.');
const versionNotFound = () => managementErrors.notFound('That version does not exist.');

function notBuilt(error: NotBuilt): Error {
  return managementErrors.badRequest(`A ${error.what} must be in the 'built' state before it can be deployed.`);
}

function versionToApi(version: ActionVersionRow, deployed: boolean): Omit<ActionVersionResponse, 'action'> {
  return {
    id: version.id,
    action_id: version.action_id,
    code: version.code,
    dependencies: version.dependencies.map(({ name, version: v }) => ({ name, version: v })),
    deployed,
    runtime: version.runtime,
    secrets: version.secrets.map(({ name, updated_at }) => ({ name, updated_at: wireTime(updated_at) })),
    // Left out when empty, as real traffic shows actions without modules (actions-wire-notes §1.2).
    ...(version.modules.length > 0 && { modules: version.modules }),
    status: version.status,
    number: version.number,
    ...(version.built_at !== null && { built_at: wireTime(version.built_at) }),
    created_at: wireTime(version.created_at),
    updated_at: wireTime(version.updated_at),
    supported_triggers: version.supported_triggers,
  };
}

function actionBase(action: ActionRow): ActionVersionResponse['action'] {
  return {
    id: action.id,
    name: action.name,
    supported_triggers: action.supported_triggers,
    all_changes_deployed: action.all_changes_deployed === 1,
    created_at: wireTime(action.created_at),
    updated_at: wireTime(action.updated_at),
  };
}

function actionToApi(action: ActionRow, deployed: ActionVersionRow | undefined): ActionResponse {
  // `registry_url` is echoed while the build is under way and dropped once built (actions-wire-notes §1.2).
  const building = action.status === 'pending' || action.status === 'building';
  return {
    ...actionBase(action),
    code: action.code,
    dependencies: action.dependencies.map(({ name, version, registry_url }) => ({ name, version, ...(building && registry_url !== undefined && { registry_url }) })),
    runtime: action.runtime,
    status: action.status,
    secrets: action.secrets.map(({ name, updated_at }) => ({ name, updated_at: wireTime(updated_at) })),
    ...(action.modules.length > 0 && { modules: action.modules }),
    ...(action.built_at !== null && { built_at: wireTime(action.built_at) }),
    ...(deployed && { deployed_version: versionToApi(deployed, true) }),
  };
}

/**
 * A page of a list as real traffic shows it: `total` and `page` only when not
 * 0, and a page past the end without `total` (`{"bindings":[],"page":1,"per_page":100}`
 * for a trigger with bindings, actions-wire-notes §1.3).
 */
function pageOf<K extends string, T>(key: K, items: T[], total: number, page: number, perPage: number): { [P in K]: T[] } & { total?: number; page?: number; per_page: number } {
  return { [key]: items, ...(total > 0 && items.length > 0 && { total }), ...(page > 0 && { page }), per_page: perPage } as { [P in K]: T[] } & { total?: number; page?: number; per_page: number };
}

function triggerOf(given: { id: string; version?: string }[]): { id: string; version: string } {
  const first = given[0]!;
  const trigger = triggerById(first.id);
  if (!trigger) throw managementErrors.badRequest(`The trigger "${first.id}" is not available in Gatehouse; the triggers are: ${TRIGGERS.map((t) => t.id).join(', ')}.`, 'operation_not_supported');
  if (first.version !== undefined && first.version !== trigger.version) {
    throw managementErrors.invalidBody(`Payload validation error: 'Trigger ${first.id} has no version ${first.version}; its version is ${trigger.version}' on property supported_triggers[0].version.`);
  }
  return { id: trigger.id, version: trigger.version };
}

/** What ActionService touches. */
export interface ActionServiceContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly config: { readonly dataDir: string };
  readonly stores: { readonly actions: ActionStore; readonly actionBindings: ActionBindingStore; readonly actionExecutions: ActionExecutionStore };
  readonly unitOfWork: UnitOfWork<{ actions: ActionStore; actionBindings: ActionBindingStore; actionModules: ActionModuleStore; jobs: JobStore }>;
}

/**
 * The module versions an action's `modules` names, resolved: the module by id
 * or name, the version by id or number (neither: the latest published one).
 * Each module at most once (the code requires it by its name).
 */
async function resolveModules(store: ActionModuleStore, tenantId: string, given: ModuleReferenceBody[]): Promise<ActionModuleRef[]> {
  const out: ActionModuleRef[] = [];
  for (const [i, ref] of given.entries()) {
    const where = `modules[${i}]`;
    if (ref.module_id === undefined && ref.module_name === undefined) throw managementErrors.invalidBody(`Payload validation error: 'Missing required property: module_id or module_name' on property ${where}.`);
    const module = ref.module_id !== undefined ? await store.get(tenantId, ref.module_id) : await store.getByName(tenantId, ref.module_name!);
    if (!module || (ref.module_name !== undefined && module.name !== ref.module_name)) {
      throw managementErrors.badRequest(`${where}: the module ${ref.module_id !== undefined ? `"${ref.module_id}"` : `named "${ref.module_name}"`} does not exist.`);
    }
    let version;
    if (ref.module_version_id !== undefined) version = await store.version(tenantId, module.id, ref.module_version_id);
    else if (ref.module_version_number !== undefined) version = await store.versionByNumber(tenantId, module.id, ref.module_version_number);
    else version = module.latest_version_id ? await store.version(tenantId, module.id, module.latest_version_id) : undefined;
    if (!version) {
      throw managementErrors.badRequest(
        ref.module_version_id === undefined && ref.module_version_number === undefined
          ? `${where}: the module "${module.name}" has no published version; publish one first (POST /api/v2/actions/modules/${module.id}/versions).`
          : `${where}: the module "${module.name}" has no such version.`,
      );
    }
    if (ref.module_version_number !== undefined && version.number !== ref.module_version_number) throw managementErrors.badRequest(`${where}: the module version ${version.id} is number ${version.number}, not ${ref.module_version_number}.`);
    if (out.some((m) => m.module_id === module.id)) throw managementErrors.badRequest(`${where}: the module "${module.name}" is named twice; an action uses one version of a module.`);
    out.push({ module_id: module.id, module_name: module.name, module_version_id: version.id, module_version_number: version.number });
  }
  return out;
}

export class ActionService {
  constructor(private readonly ctx: ActionServiceContext) {}

  async list(tenant: Tenant, query: ListActionsQuery) {
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 20;
    // Marketplace integrations are not in Gatehouse: none is installed.
    if (query.installed === true) return pageOf('actions', [] as ActionResponse[], 0, page, perPage);
    const { rows, total } = await this.ctx.stores.actions.list(
      tenant.id,
      { ...(query.triggerId !== undefined && { triggerId: query.triggerId }), ...(query.actionName !== undefined && { actionName: query.actionName }), ...(query.deployed !== undefined && { deployed: query.deployed }) },
      { offset: page * perPage, limit: perPage },
    );
    return pageOf('actions', await Promise.all(rows.map((row) => this.withDeployed(row))), total, page, perPage);
  }

  async get(tenant: Tenant, id: string): Promise<ActionResponse> {
    return this.withDeployed(await this.row(tenant, id));
  }

  async create(tenant: Tenant, body: CreateActionBody): Promise<ActionResponse> {
    if ((await this.ctx.stores.actions.count(tenant.id)) >= MAX_ACTIONS) {
      throw managementErrors.badRequest(`You reached the limit of entities of this type for this tenant (${MAX_ACTIONS} actions).`);
    }
    const now = isoAt(this.ctx.now());
    const id = randomUUID();
    const runtime = body.runtime ?? DEFAULT_RUNTIME;
    const dependencies = body.dependencies ?? [];
    const draft: ActionRow = {
      tenant_id: tenant.id,
      id,
      name: body.name,
      supported_triggers: [triggerOf(body.supported_triggers)],
      code: body.code ?? '',
      runtime,
      dependencies,
      secrets: sealActionSecrets(this.ctx.box, tenant.id, id, body.secrets ?? [], [], now),
      modules: [],
      ...this.buildOf(runtime, dependencies, now),
      deployed_version_id: null,
      all_changes_deployed: 0,
      deploy_when_built: body.deploy === true ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    const created = await this.ctx.unitOfWork.transaction(async (stores) => {
      draft.modules = await resolveModules(stores.actionModules, tenant.id, body.modules ?? []);
      if (!(await stores.actions.create(draft))) throw managementErrors.conflict(`An action with the name "${body.name}" already exists.`);
      await this.queueBuild(stores.jobs, draft, now);
      if (body.deploy === true && draft.status === 'built') return (await deployDraft(stores, draft, this.ctx.now())).action;
      return draft;
    });
    return this.withDeployed(created);
  }

  async update(tenant: Tenant, id: string, body: UpdateActionBody): Promise<ActionResponse> {
    const updated = await this.ctx.unitOfWork.transaction(async (stores) => {
      const action = await stores.actions.get(tenant.id, id);
      if (!action) throw notFound();
      const now = isoAt(this.ctx.now());
      const changes: ActionChanges = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.code !== undefined) changes.code = body.code;
      if (body.supported_triggers !== undefined) changes.supported_triggers = [triggerOf(body.supported_triggers)];
      if (body.secrets !== undefined) changes.secrets = sealActionSecrets(this.ctx.box, tenant.id, id, body.secrets, action.secrets, now);
      if (body.modules !== undefined) changes.modules = await resolveModules(stores.actionModules, tenant.id, body.modules);
      const runtime = body.runtime ?? action.runtime;
      const dependencies = body.dependencies ?? action.dependencies;
      if (body.runtime !== undefined || body.dependencies !== undefined) {
        changes.runtime = runtime;
        changes.dependencies = dependencies;
        const build = this.buildOf(runtime, dependencies, now);
        // The same runtime and dependencies keep their build, whatever its state.
        if (build.build_key !== action.build_key || action.status === 'failed') Object.assign(changes, build);
      }
      const next: ActionRow = { ...action, ...changes };
      const deployed = action.deployed_version_id ? await stores.actions.version(tenant.id, id, action.deployed_version_id) : undefined;
      changes.all_changes_deployed = draftMatches(next, deployed) ? 1 : 0;
      const result = await stores.actions.update(tenant.id, id, changes, now);
      if (result === 'name_taken') throw managementErrors.conflict(`An action with the name "${body.name}" already exists.`);
      if (!result) throw notFound();
      if (changes.status === 'pending') await this.queueBuild(stores.jobs, result, now);
      return result;
    });
    return this.withDeployed(updated);
  }

  async delete(tenant: Tenant, id: string, force: boolean): Promise<void> {
    await this.ctx.unitOfWork.transaction(async (stores) => {
      if (!(await stores.actions.get(tenant.id, id))) throw notFound();
      if (!force && (await stores.actionBindings.isBound(tenant.id, id))) {
        throw managementErrors.badRequest('The action is bound to a trigger: remove its bindings first, or delete it with force=true.');
      }
      await stores.actions.delete(tenant.id, id);
    });
  }

  /** POST /actions/actions/{id}/deploy: the draft becomes a new deployed version. */
  async deploy(tenant: Tenant, id: string): Promise<ActionVersionResponse> {
    const { action, version } = await this.ctx.unitOfWork.transaction(async (stores) => {
      const draft = await stores.actions.get(tenant.id, id);
      if (!draft) throw notFound();
      try {
        return await deployDraft(stores, draft, this.ctx.now());
      } catch (error) {
        throw error instanceof NotBuilt ? notBuilt(error) : error;
      }
    });
    // As real traffic answers the deploy: the new version, `deployed` still false (a later read says true).
    return { ...versionToApi(version, false), action: actionBase(action) };
  }

  async versions(tenant: Tenant, actionId: string, query: PageQuery) {
    const action = await this.row(tenant, actionId);
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 20;
    const { rows, total } = await this.ctx.stores.actions.versions(tenant.id, actionId, { offset: page * perPage, limit: perPage });
    return pageOf('versions', rows.map((v) => ({ ...versionToApi(v, v.id === action.deployed_version_id), action: actionBase(action) })), total, page, perPage);
  }

  async version(tenant: Tenant, actionId: string, id: string): Promise<ActionVersionResponse> {
    const action = await this.row(tenant, actionId);
    const version = await this.ctx.stores.actions.version(tenant.id, actionId, id);
    if (!version) throw versionNotFound();
    return { ...versionToApi(version, version.id === action.deployed_version_id), action: actionBase(action) };
  }

  /** POST /actions/actions/{actionId}/versions/{id}/deploy: rollback, as a new version copied from `id`. */
  async deployVersion(tenant: Tenant, actionId: string, id: string, body: DeployVersionBody): Promise<ActionVersionResponse> {
    const { action, version } = await this.ctx.unitOfWork.transaction(async (stores) => {
      const current = await stores.actions.get(tenant.id, actionId);
      if (!current) throw notFound();
      const source = await stores.actions.version(tenant.id, actionId, id);
      if (!source) throw versionNotFound();
      for (const ref of source.modules) {
        if (!(await stores.actionModules.version(tenant.id, ref.module_id, ref.module_version_id))) {
          throw managementErrors.badRequest(`The version uses version ${ref.module_version_number} of the module "${ref.module_name}", which no longer exists.`);
        }
      }
      try {
        return await redeployVersion(stores, current, source, body?.update_draft === true, this.ctx.now());
      } catch (error) {
        throw error instanceof NotBuilt ? notBuilt(error) : error;
      }
    });
    return { ...versionToApi(version, false), action: actionBase(action) };
  }

  triggers() {
    return {
      triggers: TRIGGERS.map((t) => ({
        id: t.id,
        version: t.version,
        status: 'CURRENT',
        runtimes: [...RUNTIMES],
        default_runtime: DEFAULT_RUNTIME,
        compatible_triggers: [],
        binding_policy: 'trigger-bound',
      })),
    };
  }

  async bindings(tenant: Tenant, triggerId: string, query: PageQuery) {
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 50;
    const { rows, total } = await this.ctx.stores.actionBindings.list(tenant.id, triggerId, { offset: page * perPage, limit: perPage });
    const items = await Promise.all(rows.map(async ({ binding, action }) => this.bindingToApi(binding, await this.withDeployed(action))));
    return pageOf('bindings', items, total, page, perPage);
  }

  /** PATCH /actions/triggers/{triggerId}/bindings: the body replaces the whole list, in its order, with new binding ids. */
  async updateBindings(tenant: Tenant, triggerId: string, body: UpdateBindingsBody): Promise<{ bindings: BindingResponse[] }> {
    const trigger = triggerById(triggerId);
    if (!trigger) throw managementErrors.badRequest(`The trigger "${triggerId}" is not available in Gatehouse.`, 'operation_not_supported');
    const given = body.bindings ?? [];
    const bound = await this.ctx.unitOfWork.transaction(async (stores) => {
      const existing = given.some((b) => b.ref.type === 'binding_id') ? (await stores.actionBindings.list(tenant.id, triggerId, { offset: 0, limit: 1000 })).rows : [];
      const now = isoAt(this.ctx.now());
      const rows: { binding: ActionBindingRow; action: ActionRow }[] = [];
      for (const [position, item] of given.entries()) {
        const type = item.ref.type ?? 'action_name';
        let action: ActionRow | undefined;
        if (type === 'action_id') action = await stores.actions.get(tenant.id, item.ref.value);
        else if (type === 'action_name') action = await stores.actions.getByName(tenant.id, item.ref.value);
        else action = existing.find((e) => e.binding.id === item.ref.value)?.action;
        if (!action) throw managementErrors.badRequest(`bindings[${position}]: no action matches ${type} "${item.ref.value}".`);
        if (action.supported_triggers[0]?.id !== triggerId) {
          throw managementErrors.badRequest(`bindings[${position}]: the action "${action.name}" does not support the trigger "${triggerId}".`);
        }
        if (action.deployed_version_id === null) throw managementErrors.badRequest(`bindings[${position}]: the action "${action.name}" must be deployed before it is bound.`);
        rows.push({
          action,
          binding: { tenant_id: tenant.id, id: randomUUID(), trigger_id: triggerId, position, action_id: action.id, display_name: item.display_name ?? action.name, created_at: now, updated_at: now },
        });
      }
      await stores.actionBindings.replace(tenant.id, triggerId, rows.map((r) => r.binding));
      return rows;
    });
    return { bindings: await Promise.all(bound.map(async ({ binding, action }) => this.bindingToApi(binding, await this.withDeployed(action)))) };
  }

  async execution(tenant: Tenant, id: string): Promise<ExecutionResponse> {
    const row = await this.ctx.stores.actionExecutions.get(tenant.id, id, isoAt(this.ctx.now()));
    if (!row) throw managementErrors.notFound('That execution does not exist.');
    return {
      id: row.id,
      trigger_id: row.trigger_id,
      status: row.status,
      results: row.results.map(({ action_name, error, started_at, ended_at }) => ({ action_name, ...(error && { error }), started_at, ended_at })),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  private bindingToApi(binding: ActionBindingRow, action: ActionResponse): BindingResponse {
    return { id: binding.id, trigger_id: binding.trigger_id, display_name: binding.display_name, action, created_at: wireTime(binding.created_at), updated_at: wireTime(binding.updated_at) };
  }

  /** The build state of a new draft: built at once without dependencies or when the same build is on disk, else pending. */
  private buildOf(runtime: string, dependencies: ActionRow['dependencies'], now: string): Pick<ActionRow, 'status' | 'build_key' | 'build_errors' | 'built_at'> {
    if (dependencies.length === 0) return { status: 'built', build_key: null, build_errors: null, built_at: now };
    const key = buildKey(runtime, dependencies);
    if (fs.existsSync(path.join(buildDirectory(this.ctx.config.dataDir, key), '.gatehouse-built'))) return { status: 'built', build_key: key, build_errors: null, built_at: now };
    return { status: 'pending', build_key: key, build_errors: null, built_at: null };
  }

  private async queueBuild(jobs: JobStore, draft: ActionRow, now: string): Promise<void> {
    if (draft.status !== 'pending' || draft.build_key === null) return;
    const params: ActionBuildParams = { build_key: draft.build_key, dependencies: draft.dependencies.map(({ name, version }) => ({ name, version })) };
    await jobs.insert(newJobRow(draft.tenant_id, 'action_build', now, { ...params }));
  }

  private async withDeployed(action: ActionRow): Promise<ActionResponse> {
    const deployed = action.deployed_version_id ? await this.ctx.stores.actions.version(action.tenant_id, action.id, action.deployed_version_id) : undefined;
    return actionToApi(action, deployed);
  }

  private async row(tenant: Tenant, id: string): Promise<ActionRow> {
    const row = await this.ctx.stores.actions.get(tenant.id, id);
    if (!row) throw notFound();
    return row;
  }
}
