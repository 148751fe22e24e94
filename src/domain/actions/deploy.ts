/**
 * Deploying an action: a new immutable version copied from the draft (or,
 * for a rollback, from an earlier version), numbered after the last, becomes
 * the one the triggers run. Only a build that ended `built` deploys: the
 * service's 400 otherwise, whose message auth0-deploy-cli waits on
 * (actions-wire-notes §1.3). At most MAX_VERSIONS are kept per action, the
 * oldest going first (never the deployed one).
 */
import { randomUUID } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import type { ActionRow, ActionVersionRow } from './rows.js';
import type { ActionStore } from './store.js';
import { sameSecrets } from './secrets.js';

export const MAX_VERSIONS = 50;

/** A deploy of something not built: the Management API answers it 400 with the service's message (management/actions/service.ts). */
export class NotBuilt extends Error {
  constructor(readonly what: 'draft' | 'version') {
    super(`the ${what} is not built`);
  }
}

/** Whether the draft holds what the version holds (`all_changes_deployed`). */
export function draftMatches(action: ActionRow, version: ActionVersionRow | undefined): boolean {
  if (!version) return false;
  return (
    action.code === version.code &&
    action.runtime === version.runtime &&
    JSON.stringify(action.dependencies) === JSON.stringify(version.dependencies) &&
    JSON.stringify(action.supported_triggers) === JSON.stringify(version.supported_triggers) &&
    JSON.stringify(action.modules) === JSON.stringify(version.modules) &&
    sameSecrets(action.secrets, version.secrets)
  );
}

type Source = Pick<ActionVersionRow, 'code' | 'runtime' | 'dependencies' | 'secrets' | 'modules' | 'supported_triggers' | 'build_key' | 'built_at'>;

async function newDeployedVersion(stores: { actions: ActionStore }, action: ActionRow, source: Source, now: number): Promise<ActionVersionRow> {
  const at = isoAt(now);
  const version: ActionVersionRow = {
    tenant_id: action.tenant_id,
    id: randomUUID(),
    action_id: action.id,
    number: (await stores.actions.lastVersionNumber(action.tenant_id, action.id)) + 1,
    supported_triggers: source.supported_triggers,
    code: source.code,
    runtime: source.runtime,
    dependencies: source.dependencies,
    secrets: source.secrets,
    modules: source.modules,
    status: 'built',
    build_key: source.build_key,
    built_at: source.built_at ?? at,
    created_at: at,
    updated_at: at,
  };
  await stores.actions.insertVersion(version);
  await stores.actions.pruneVersions(action.tenant_id, action.id, MAX_VERSIONS, version.id);
  return version;
}

/** Deploys the draft (call inside a unit of work); refused unless its build ended `built`. */
export async function deployDraft(stores: { actions: ActionStore }, action: ActionRow, now: number): Promise<{ action: ActionRow; version: ActionVersionRow }> {
  if (action.status !== 'built') throw new NotBuilt('draft');
  const version = await newDeployedVersion(stores, action, action, now);
  const updated = await stores.actions.update(action.tenant_id, action.id, { deployed_version_id: version.id, all_changes_deployed: 1, deploy_when_built: 0 }, isoAt(now));
  if (updated === undefined || updated === 'name_taken') throw new Error('the action was deleted while it was deployed');
  return { action: updated, version };
}

/** Deploys an earlier version again as a new one (rollback); with `updateDraft` the draft becomes that version too. */
export async function redeployVersion(
  stores: { actions: ActionStore },
  action: ActionRow,
  source: ActionVersionRow,
  updateDraft: boolean,
  now: number,
): Promise<{ action: ActionRow; version: ActionVersionRow }> {
  if (source.status !== 'built') throw new NotBuilt('version');
  const version = await newDeployedVersion(stores, action, source, now);
  const draft = updateDraft
    ? {
        code: source.code,
        runtime: source.runtime,
        dependencies: source.dependencies,
        secrets: source.secrets,
        modules: source.modules,
        supported_triggers: source.supported_triggers,
        status: 'built' as const,
        build_key: source.build_key,
        build_errors: null,
        built_at: source.built_at,
      }
    : {};
  const updated = await stores.actions.update(
    action.tenant_id,
    action.id,
    { ...draft, deployed_version_id: version.id, all_changes_deployed: updateDraft || draftMatches(action, version) ? 1 : 0 },
    isoAt(now),
  );
  if (updated === undefined || updated === 'name_taken') throw new Error('the action was deleted while it was deployed');
  return { action: updated, version };
}
