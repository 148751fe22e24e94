/**
 * What the Actions runtime reads: the actions bound to a trigger, in binding
 * order, as their deployed versions hold them (a draft changed since is not
 * run until it is deployed). Secrets are opened here, for the call only.
 */
import path from 'node:path';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ActionModuleRef, ActionRow, ActionVersionRow } from './rows.js';
import type { ActionBindingStore, ActionModuleStore, ActionStore } from './store.js';
import { openActionSecrets, openModuleSecrets } from './secrets.js';
import { buildDirectory } from './build.js';

export interface BoundAction {
  actionId: string;
  versionId: string;
  name: string;
  code: string;
  runtime: string;
  /** Opened from the sealed values. */
  secrets: Record<string, string>;
  dependencies: { name: string; version: string }[];
  /** The folder holding the `node_modules` of this version, or null when it has no dependencies. */
  modulesDir: string | null;
  /** The Actions modules the version uses (`require('actions:<name>')`). */
  modules: BoundModule[];
}

/** A published module version, as the sandbox loads it. */
export interface BoundModule {
  name: string;
  versionId: string;
  code: string;
  modulesDir: string | null;
  /** Opened from the sealed values, for the call only. */
  secrets: Record<string, string>;
}

export interface DeployedActions {
  /** The trigger's bound actions in binding order; deployed versions only. */
  boundActions(tenantId: string, triggerId: string): Promise<BoundAction[]>;
  /** One action's deployed version (a custom token exchange profile names its action); undefined when it has none. */
  deployedAction(tenantId: string, actionId: string): Promise<BoundAction | undefined>;
}

/** What DeployedActionsReader touches. */
export interface DeployedActionsContext {
  readonly box: SecretBox;
  readonly config: { readonly dataDir: string };
  readonly stores: { readonly actionBindings: ActionBindingStore; readonly actions: ActionStore; readonly actionModules: Pick<ActionModuleStore, 'version'> };
}

export class DeployedActionsReader implements DeployedActions {
  constructor(private readonly ctx: DeployedActionsContext) {}

  async boundActions(tenantId: string, triggerId: string): Promise<BoundAction[]> {
    const bound = await this.ctx.stores.actionBindings.deployed(tenantId, triggerId);
    return Promise.all(bound.map(({ action, version }) => this.bound(action, version)));
  }

  async deployedAction(tenantId: string, actionId: string): Promise<BoundAction | undefined> {
    const action = await this.ctx.stores.actions.get(tenantId, actionId);
    const version = action?.deployed_version_id ? await this.ctx.stores.actions.version(tenantId, actionId, action.deployed_version_id) : undefined;
    return action && version ? await this.bound(action, version) : undefined;
  }

  private async bound(action: ActionRow, version: ActionVersionRow): Promise<BoundAction> {
    return {
      modules: await boundModules(this.ctx, action.tenant_id, version.modules),
      actionId: action.id,
      versionId: version.id,
      name: action.name,
      code: version.code,
      runtime: version.runtime,
      secrets: openActionSecrets(this.ctx.box, action.tenant_id, action.id, version.secrets),
      dependencies: version.dependencies.map(({ name, version: v }) => ({ name, version: v })),
      modulesDir: version.build_key === null ? null : path.resolve(buildDirectory(this.ctx.config.dataDir, version.build_key)),
    };
  }
}

/** The module versions an action names, opened for a run (a module version that is gone is left out: the code's require says so). */
export async function boundModules(
  ctx: { readonly box: SecretBox; readonly config: { readonly dataDir: string }; readonly stores: { readonly actionModules: Pick<ActionModuleStore, 'version'> } },
  tenantId: string,
  refs: readonly ActionModuleRef[],
): Promise<BoundModule[]> {
  const out: BoundModule[] = [];
  for (const ref of refs) {
    const version = await ctx.stores.actionModules.version(tenantId, ref.module_id, ref.module_version_id);
    if (!version) continue;
    out.push({
      name: ref.module_name,
      versionId: version.id,
      code: version.code,
      modulesDir: version.build_key === null ? null : path.resolve(buildDirectory(ctx.config.dataDir, version.build_key)),
      secrets: openModuleSecrets(ctx.box, tenantId, ref.module_id, version.secrets),
    });
  }
  return out;
}
