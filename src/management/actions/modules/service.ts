/**
 * Actions modules in the Management API (docs/actions.md, "Modules"): shared
 * code that actions `require('actions:<name>')`. A module has a draft (what
 * create and PATCH write) and immutable, numbered versions: publishing
 * (POST …/versions) freezes the draft's code, dependencies and sealed secrets
 * as a new version; rollback copies a version back into the draft. Actions
 * name the module versions they use (`modules` of an action), so a new
 * version changes nothing that runs until an action is deployed with it.
 *
 * Dependencies go through the actions' build step (src/domain/actions/build.ts):
 * a create or PATCH queues it, and a publish waits for the install (or runs
 * it) so that no version is published whose dependencies are not installed;
 * npm's failure is the publish's 400.
 */
import { randomUUID } from 'node:crypto';
import { buildKey, installDependencies, isBuilt, type ActionBuildParams } from '../../../domain/actions/build.js';
import type { ActionModuleRow, ActionModuleVersionRow, StoredActionSecret } from '../../../domain/actions/rows.js';
import { sameSecrets, sealModuleSecrets } from '../../../domain/actions/secrets.js';
import type { ActionModuleChanges, ActionModuleStore } from '../../../domain/actions/store.js';
import { DEFAULT_RUNTIME } from '../../../domain/actions/triggers.js';
import { newJobRow, type JobStore } from '../../../domain/jobs/store.js';
import type { UnitOfWork } from '../../../domain/stores.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import type { SecretBox } from '../../../platform/crypto/secret-box.js';
import { ManagementError, managementErrors } from '../../../platform/http/errors.js';
import type { CreateModuleBody, ModuleListItem, ModulePageQuery, ModuleResponse, ModuleVersionResponse, RollbackModuleBody, UpdateModuleBody } from './schema.js';

/** Modules a tenant may have (Gatehouse's bound, as the actions' MAX_ACTIONS). */
export const MAX_MODULES = 100;
/** Published versions a module may have; the document's 412 past it. */
export const MAX_MODULE_VERSIONS = 50;

const notFound = () => managementErrors.notFound('The action module does not exist.');
const versionNotFound = () => managementErrors.notFound('The module or version does not exist.');
/** A publish with no draft written (create, PATCH, rollback) since the last: the document's 409. */
const noDraft = () => managementErrors.conflict('No draft version is available to publish: the draft was published already; change it (PATCH) or roll it back first.');

type Draft = Pick<ActionModuleRow, 'code' | 'dependencies' | 'secrets'>;

/** Whether the draft holds what the version holds (`all_changes_published`). */
function draftMatches(draft: Draft, version: ActionModuleVersionRow | undefined): boolean {
  return (
    version !== undefined &&
    draft.code === version.code &&
    JSON.stringify(draft.dependencies) === JSON.stringify(version.dependencies) &&
    sameSecrets(draft.secrets, version.secrets)
  );
}

const secretsOut = (secrets: StoredActionSecret[]) => secrets.map(({ name, updated_at }) => ({ name, updated_at }));
const dependenciesOut = (deps: ActionModuleRow['dependencies']) => deps.map(({ name, version }) => ({ name, version }));

function versionToApi(version: ActionModuleVersionRow): ModuleVersionResponse {
  return {
    id: version.id,
    module_id: version.module_id,
    version_number: version.number,
    code: version.code,
    dependencies: dependenciesOut(version.dependencies),
    secrets: secretsOut(version.secrets),
    created_at: version.created_at,
  };
}

function moduleToApi(row: ActionModuleRow, latest: ActionModuleVersionRow | undefined, usedBy: number): ModuleResponse {
  const { module_id: _module, ...latestOut } = latest ? versionToApi(latest) : { module_id: '' };
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    dependencies: dependenciesOut(row.dependencies),
    secrets: secretsOut(row.secrets),
    actions_using_module_total: usedBy,
    all_changes_published: draftMatches(row, latest),
    ...(latest && { latest_version_number: latest.number, latest_version: latestOut as NonNullable<ModuleResponse['latest_version']> }),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What ActionModuleService touches. */
export interface ActionModuleServiceContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly config: { readonly dataDir: string; readonly actionsRegistry: string | undefined };
  readonly stores: { readonly actionModules: ActionModuleStore };
  readonly unitOfWork: UnitOfWork<{ actionModules: ActionModuleStore; jobs: JobStore }>;
}

export class ActionModuleService {
  constructor(private readonly ctx: ActionModuleServiceContext) {}

  async list(tenant: Tenant, query: ModulePageQuery): Promise<{ modules: ModuleListItem[]; total: number; page?: number; per_page?: number }> {
    const paged = query.page !== undefined || query.per_page !== undefined;
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 20;
    const { rows, total } = await this.ctx.stores.actionModules.list(tenant.id, paged ? { offset: page * perPage, limit: perPage } : { offset: 0, limit: MAX_MODULES });
    const modules = await Promise.all(rows.map(async (row) => {
      const { latest_version: _latest, ...item } = await this.toApi(row);
      return item;
    }));
    return { modules, total, ...(paged && { page, per_page: perPage }) };
  }

  async get(tenant: Tenant, id: string): Promise<ModuleResponse> {
    return this.toApi(await this.row(tenant, id));
  }

  async create(tenant: Tenant, body: CreateModuleBody): Promise<ModuleResponse> {
    if ((await this.ctx.stores.actionModules.count(tenant.id)) >= MAX_MODULES) {
      throw managementErrors.badRequest(`You reached the limit of entities of this type for this tenant (${MAX_MODULES} action modules).`, 'entity_limit_exceeded');
    }
    const now = isoAt(this.ctx.now());
    const id = randomUUID();
    const dependencies = (body.dependencies ?? []).map(({ name, version }) => ({ name, version }));
    const row: ActionModuleRow = {
      tenant_id: tenant.id,
      id,
      name: body.name,
      code: body.code,
      dependencies,
      secrets: sealModuleSecrets(this.ctx.box, tenant.id, id, body.secrets ?? [], [], now),
      build_key: dependencies.length === 0 ? null : buildKey(DEFAULT_RUNTIME, dependencies),
      api_version: body.api_version ?? null,
      latest_version_id: null,
      draft_pending: 1,
      created_at: now,
      updated_at: now,
    };
    // With `publish`, the dependencies are installed before anything is written: a failure leaves no module behind.
    if (body.publish === true) await this.install(row);
    const created = await this.ctx.unitOfWork.transaction(async (stores) => {
      if (!(await stores.actionModules.create(row))) throw managementErrors.conflict(`An action module with the name "${body.name}" already exists.`);
      if (body.publish === true) return (await this.publishDraft(stores, row)).module;
      await this.queueBuild(stores.jobs, row, now);
      return row;
    });
    return this.toApi(created);
  }

  async update(tenant: Tenant, id: string, body: UpdateModuleBody): Promise<ModuleResponse> {
    const updated = await this.ctx.unitOfWork.transaction(async (stores) => {
      const module = await stores.actionModules.get(tenant.id, id);
      if (!module) throw notFound();
      const now = isoAt(this.ctx.now());
      // Every PATCH writes a new draft, to be published (auth0-deploy-cli publishes each module it updates).
      const changes: ActionModuleChanges = { draft_pending: 1 };
      if (body.code !== undefined) changes.code = body.code;
      // The list replaces the stored secrets as a whole, as for actions.
      if (body.secrets !== undefined) changes.secrets = sealModuleSecrets(this.ctx.box, tenant.id, id, body.secrets, module.secrets, now);
      if (body.dependencies !== undefined) {
        changes.dependencies = body.dependencies.map(({ name, version }) => ({ name, version }));
        changes.build_key = changes.dependencies.length === 0 ? null : buildKey(DEFAULT_RUNTIME, changes.dependencies);
      }
      const result = await stores.actionModules.update(tenant.id, id, changes, now);
      if (!result) throw notFound();
      if (changes.build_key !== undefined && changes.build_key !== module.build_key) await this.queueBuild(stores.jobs, result, now);
      return result;
    });
    return this.toApi(updated);
  }

  async delete(tenant: Tenant, id: string): Promise<void> {
    await this.ctx.unitOfWork.transaction(async (stores) => {
      if (!(await stores.actionModules.get(tenant.id, id))) throw notFound();
      const uses = await stores.actionModules.uses(tenant.id, id);
      if (uses.length > 0) {
        const names = uses.slice(0, 5).map((u) => `"${u.action.name}"`).join(', ');
        throw new ManagementError(412, `The Actions Module cannot be deleted because it is in use by one or more actions: ${names}${uses.length > 5 ? ' …' : ''}.`);
      }
      await stores.actionModules.delete(tenant.id, id);
    });
  }

  /** GET /actions/modules/{id}/actions: the actions whose deployed version uses the module, with the version they use. */
  async actions(tenant: Tenant, id: string, query: ModulePageQuery) {
    await this.row(tenant, id);
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 50;
    const deployed = (await this.ctx.stores.actionModules.uses(tenant.id, id)).filter((u) => u.deployed !== null);
    return {
      actions: deployed.slice(page * perPage, (page + 1) * perPage).map(({ action, deployed: ref }) => ({
        action_id: action.id,
        action_name: action.name,
        module_version_id: ref!.module_version_id,
        module_version_number: ref!.module_version_number,
        supported_triggers: action.supported_triggers,
      })),
      total: deployed.length,
      page,
      per_page: perPage,
    };
  }

  /** POST /actions/modules/{id}/rollback: the version's code, dependencies and secrets become the draft. */
  async rollback(tenant: Tenant, id: string, body: RollbackModuleBody): Promise<ModuleResponse> {
    const updated = await this.ctx.unitOfWork.transaction(async (stores) => {
      const module = await stores.actionModules.get(tenant.id, id);
      if (!module) throw versionNotFound();
      const version = await stores.actionModules.version(tenant.id, id, body.module_version_id);
      if (!version) throw versionNotFound();
      if (draftMatches(module, version)) throw managementErrors.conflict('The specified version is already the current draft version.');
      const result = await stores.actionModules.update(
        tenant.id,
        id,
        { code: version.code, dependencies: version.dependencies, secrets: version.secrets, build_key: version.build_key, draft_pending: 1 },
        isoAt(this.ctx.now()),
      );
      if (!result) throw versionNotFound();
      return result;
    });
    return this.toApi(updated);
  }

  async versions(tenant: Tenant, id: string, query: ModulePageQuery) {
    await this.row(tenant, id);
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 20;
    const { rows, total } = await this.ctx.stores.actionModules.versions(tenant.id, id, { offset: page * perPage, limit: perPage });
    return { versions: rows.map(versionToApi), total, page, per_page: perPage };
  }

  async version(tenant: Tenant, id: string, versionId: string): Promise<ModuleVersionResponse> {
    await this.row(tenant, id);
    const version = await this.ctx.stores.actionModules.version(tenant.id, id, versionId);
    if (!version) throw versionNotFound();
    return versionToApi(version);
  }

  /**
   * POST /actions/modules/{id}/versions: the draft, its dependencies
   * installed, frozen as the next version. A draft that holds what the latest
   * version holds (a PATCH that changed nothing, as auth0-deploy-cli sends on
   * every import before it publishes) is answered with that version, and no
   * new one is made: an import of an unchanged tenant changes nothing.
   */
  async publish(tenant: Tenant, id: string): Promise<ModuleVersionResponse> {
    const draft = await this.row(tenant, id);
    if (draft.draft_pending !== 1) throw noDraft();
    await this.install(draft);
    const { version } = await this.ctx.unitOfWork.transaction(async (stores) => {
      const module = await stores.actionModules.get(tenant.id, id);
      if (!module) throw notFound();
      // The draft changed while its dependencies were installed: publish what was installed for, or refuse.
      if (module.build_key !== draft.build_key) throw managementErrors.conflict('The module changed while it was being published; publish it again.');
      if (module.draft_pending !== 1) throw noDraft();
      // Taken once: a concurrent publish of the same draft waits on the row (PostgreSQL) and then finds it taken.
      if (!(await stores.actionModules.claimDraft(tenant.id, id, isoAt(this.ctx.now())))) throw noDraft();
      const latest = module.latest_version_id ? await stores.actionModules.version(tenant.id, id, module.latest_version_id) : undefined;
      if (latest && draftMatches(module, latest)) return { version: latest };
      await this.makeRoom(stores.actionModules, module);
      return this.publishDraft(stores, module);
    });
    return versionToApi(version);
  }

  /**
   * At MAX_MODULE_VERSIONS, the oldest version that no action's draft or
   * deployed version uses (nor is the latest) is deleted to make room, as the
   * service does with actions' versions; only when every one is in use is the
   * publish refused (the document's 412).
   */
  private async makeRoom(store: ActionModuleStore, module: ActionModuleRow): Promise<void> {
    const { rows, total } = await store.versions(module.tenant_id, module.id, { offset: 0, limit: MAX_MODULE_VERSIONS + 10 });
    if (total < MAX_MODULE_VERSIONS) return;
    const used = new Set((await store.uses(module.tenant_id, module.id)).flatMap((u) => [u.draft?.module_version_id, u.deployed?.module_version_id]));
    const spare = [...rows].reverse().find((v) => !used.has(v.id) && v.id !== module.latest_version_id);
    if (!spare) throw new ManagementError(412, `Maximum number of module versions reached (${MAX_MODULE_VERSIONS}). Consolidate versions used in actions before creating new ones.`);
    await store.deleteVersion(module.tenant_id, module.id, spare.id);
  }

  private async publishDraft(stores: { actionModules: ActionModuleStore }, module: ActionModuleRow): Promise<{ module: ActionModuleRow; version: ActionModuleVersionRow }> {
    const now = isoAt(this.ctx.now());
    const version: ActionModuleVersionRow = {
      tenant_id: module.tenant_id,
      id: randomUUID(),
      module_id: module.id,
      number: (await stores.actionModules.lastVersionNumber(module.tenant_id, module.id)) + 1,
      code: module.code,
      dependencies: module.dependencies,
      secrets: module.secrets,
      build_key: module.build_key,
      created_at: now,
    };
    if (!(await stores.actionModules.insertVersion(version))) throw managementErrors.conflict('The module changed while it was being published; publish it again.');
    const updated = await stores.actionModules.update(module.tenant_id, module.id, { latest_version_id: version.id, draft_pending: 0 }, now);
    if (!updated) throw notFound();
    return { module: updated, version };
  }

  /** The draft's dependencies installed by the build step (at once when the folder is there); npm's reason is the 400. */
  private async install(module: ActionModuleRow): Promise<void> {
    if (module.build_key === null) return;
    if (isBuilt(this.ctx.config.dataDir, module.build_key)) return;
    const outcome = await installDependencies({ dataDir: this.ctx.config.dataDir, registry: this.ctx.config.actionsRegistry, key: module.build_key, dependencies: module.dependencies });
    if (!outcome.ok) throw managementErrors.badRequest(`The module's dependencies could not be installed: ${outcome.reason}`);
  }

  private async queueBuild(jobs: JobStore, module: ActionModuleRow, now: string): Promise<void> {
    if (module.build_key === null) return;
    if (isBuilt(this.ctx.config.dataDir, module.build_key)) return;
    const params: ActionBuildParams = { build_key: module.build_key, dependencies: module.dependencies };
    await jobs.insert(newJobRow(module.tenant_id, 'action_build', now, { ...params }));
  }

  private async toApi(row: ActionModuleRow): Promise<ModuleResponse> {
    const latest = row.latest_version_id ? await this.ctx.stores.actionModules.version(row.tenant_id, row.id, row.latest_version_id) : undefined;
    const usedBy = (await this.ctx.stores.actionModules.uses(row.tenant_id, row.id)).filter((u) => u.deployed !== null).length;
    return moduleToApi(row, latest, usedBy);
  }

  private async row(tenant: Tenant, id: string): Promise<ActionModuleRow> {
    const row = await this.ctx.stores.actionModules.get(tenant.id, id);
    if (!row) throw notFound();
    return row;
  }
}
