/**
 * The rows of the Actions tables (migration 0110) as their stores read and
 * write them: booleans as integers (0/1), timestamps as ISO-8601 text in UTC,
 * JSON columns as typed values (src/storage/json-columns.ts).
 */

/** The build of a draft or version: `pending` (queued), `building`, then `built` or `failed`. */
export type ActionBuildStatus = 'pending' | 'building' | 'built' | 'failed';

export interface ActionTriggerRef {
  id: string;
  version: string;
}

export interface ActionDependency {
  name: string;
  version: string;
  registry_url?: string;
}

/** A secret as stored: its value sealed under the master key (`actionSecretContext`), never returned. */
export interface StoredActionSecret {
  name: string;
  value_enc: string;
  updated_at: string;
}

/** A build error, as the service's `ActionVersion.errors[]`. */
export interface ActionBuildError {
  id: string;
  msg: string;
  url?: string;
}

/** An action: its draft (what PATCH changes), the draft's build, and the version deployed. */
export interface ActionRow {
  tenant_id: string;
  /** UUID v4. */
  id: string;
  name: string;
  supported_triggers: ActionTriggerRef[];
  code: string;
  runtime: string;
  dependencies: ActionDependency[];
  secrets: StoredActionSecret[];
  /** The module versions the draft uses (`require('actions:<name>')`). */
  modules: ActionModuleRef[];
  status: ActionBuildStatus;
  /** The folder of the draft's installed dependencies (src/domain/actions/build.ts), null without dependencies. */
  build_key: string | null;
  build_errors: ActionBuildError[] | null;
  built_at: string | null;
  deployed_version_id: string | null;
  /** 1 when the draft is what the deployed version holds. */
  all_changes_deployed: number;
  /** 1: created with `deploy: true` before its build ended; the build deploys it. */
  deploy_when_built: number;
  created_at: string;
  updated_at: string;
}

/** An immutable version of an action, made by a deploy or a rollback. */
export interface ActionVersionRow {
  tenant_id: string;
  id: string;
  action_id: string;
  number: number;
  supported_triggers: ActionTriggerRef[];
  code: string;
  runtime: string;
  dependencies: ActionDependency[];
  secrets: StoredActionSecret[];
  modules: ActionModuleRef[];
  status: ActionBuildStatus;
  build_key: string | null;
  built_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One action bound to a trigger, at `position` (from 0) of the trigger's list. */
export interface ActionBindingRow {
  tenant_id: string;
  id: string;
  trigger_id: string;
  position: number;
  action_id: string;
  display_name: string;
  created_at: string;
  updated_at: string;
}

export type ActionExecutionStatus = 'unspecified' | 'pending' | 'final' | 'partial' | 'canceled' | 'suspended';

/** What one action of an execution did. */
export interface ActionExecutionResult {
  action_name: string;
  error?: ActionBuildError;
  started_at: string;
  ended_at: string;
  /** Captured console output, bounded by the runtime; never shown by the Management API's document (kept for the tenant). */
  logs?: string;
}

/** One run of a trigger (GET /actions/executions/{id}), kept `EXECUTION_RETENTION_MS` (./executions.ts). */
export interface ActionExecutionRow {
  tenant_id: string;
  id: string;
  trigger_id: string;
  status: ActionExecutionStatus;
  results: ActionExecutionResult[];
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/** A module version an action uses, as the document's `ActionModuleReference`. */
export interface ActionModuleRef {
  module_id: string;
  module_name: string;
  module_version_id: string;
  module_version_number: number;
}

/** An Actions module (migration 0255): its draft, which PATCH changes and each publish copies. */
export interface ActionModuleRow {
  tenant_id: string;
  /** UUID v4. */
  id: string;
  name: string;
  code: string;
  dependencies: { name: string; version: string }[];
  /** Sealed under the master key (`actionModuleSecretContext`), never returned. */
  secrets: StoredActionSecret[];
  /** The folder of the draft's installed dependencies (./build.ts), null without dependencies. */
  build_key: string | null;
  /** The request's `api_version`, kept as given. */
  api_version: string | null;
  /** The last version published; null before the first. */
  latest_version_id: string | null;
  /** 1 while the draft written by create, PATCH or rollback awaits a publish; 0 once published (another publish is 409). */
  draft_pending: number;
  created_at: string;
  updated_at: string;
}

/** An immutable, published version of a module. */
export interface ActionModuleVersionRow {
  tenant_id: string;
  id: string;
  module_id: string;
  number: number;
  code: string;
  dependencies: { name: string; version: string }[];
  secrets: StoredActionSecret[];
  build_key: string | null;
  created_at: string;
}
