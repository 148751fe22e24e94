/**
 * What the Actions runtime reads: the actions bound to a trigger, in binding
 * order, as their deployed versions hold them (a draft changed since is not
 * run until it is deployed). Secrets are opened here, for the call only.
 */
import path from 'node:path';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { ActionRow, ActionVersionRow } from './rows.js';
import type { ActionBindingStore, ActionStore } from './store.js';
import { openActionSecrets } from './secrets.js';
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
  readonly stores: { readonly actionBindings: ActionBindingStore; readonly actions: ActionStore };
}

export class DeployedActionsReader implements DeployedActions {
  constructor(private readonly ctx: DeployedActionsContext) {}

  async boundActions(tenantId: string, triggerId: string): Promise<BoundAction[]> {
    const bound = await this.ctx.stores.actionBindings.deployed(tenantId, triggerId);
    return bound.map(({ action, version }) => this.bound(action, version));
  }

  async deployedAction(tenantId: string, actionId: string): Promise<BoundAction | undefined> {
    const action = await this.ctx.stores.actions.get(tenantId, actionId);
    const version = action?.deployed_version_id ? await this.ctx.stores.actions.version(tenantId, actionId, action.deployed_version_id) : undefined;
    return action && version ? this.bound(action, version) : undefined;
  }

  private bound(action: ActionRow, version: ActionVersionRow): BoundAction {
    return {
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
