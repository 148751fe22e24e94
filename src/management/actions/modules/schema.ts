/**
 * Schemas of Actions modules in the Management API, from the service's
 * OpenAPI document (`CreateActionModuleRequestContent`,
 * `UpdateActionModuleRequestContent`, `RollbackActionModuleRequestContent`,
 * `GetActionModuleResponseContent`, `ActionModuleVersion`,
 * `ActionModuleAction`). Secrets are written with their value and read as
 * `{name, updated_at}` only: no response schema has a member that could carry
 * a value. Dependencies take the same names and versions as actions'
 * (registry packages only: no URL, path or git spec).
 */
import { Type, type Static } from '@sinclair/typebox';
import { OffsetPagingQuery } from '../../paging.js';
import { NO_CONTROL_CHARACTERS } from '../../strings.js';
import { MAX_DEPENDENCIES, MAX_SECRETS, PACKAGE_NAME, PACKAGE_VERSION } from '../schema.js';

/** The document's bound on a module's code. */
export const MAX_MODULE_CODE_LENGTH = 65536;

const Dependency = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 214, pattern: PACKAGE_NAME, description: 'The name of the npm dependency.' }),
    version: Type.String({ minLength: 1, maxLength: 50, pattern: PACKAGE_VERSION, description: 'The version of the npm dependency.' }),
  },
  { additionalProperties: false },
);

const Secret = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_\\-.]+$', description: 'The name of the secret.' }),
    // Optional, unlike the document's `ActionModuleSecretRequest`: auth0-deploy-cli exports secrets by name and sends them back so;
    // a name without a value keeps the value stored under it, as for actions' secrets (docs/actions.md).
    value: Type.Optional(Type.String({ maxLength: 4096, pattern: '^[^\\u0000]*$', description: 'The value of the secret. Never returned.' })),
  },
  { additionalProperties: false },
);

const Code = Type.String({ maxLength: MAX_MODULE_CODE_LENGTH, pattern: '^[^\\u0000]*$', description: 'The source code of the action module.' });

export const CreateModuleBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS, description: 'The name of the action module; actions require it as `actions:<name>`.' }),
    code: Code,
    secrets: Type.Optional(Type.Array(Secret, { maxItems: MAX_SECRETS })),
    dependencies: Type.Optional(Type.Array(Dependency, { maxItems: MAX_DEPENDENCIES })),
    api_version: Type.Optional(Type.String({ maxLength: 20, pattern: NO_CONTROL_CHARACTERS, description: 'The API version of the module.' })),
    publish: Type.Optional(Type.Boolean({ description: 'Whether to publish the module immediately after creation.' })),
  },
  { additionalProperties: false },
);
export type CreateModuleBody = Static<typeof CreateModuleBody>;

export const UpdateModuleBody = Type.Object(
  {
    code: Type.Optional(Code),
    secrets: Type.Optional(Type.Array(Secret, { maxItems: MAX_SECRETS })),
    dependencies: Type.Optional(Type.Array(Dependency, { maxItems: MAX_DEPENDENCIES })),
  },
  { additionalProperties: false },
);
export type UpdateModuleBody = Static<typeof UpdateModuleBody>;

export const RollbackModuleBody = Type.Object(
  { module_version_id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'The unique ID of the module version to roll back to.' }) },
  { additionalProperties: false },
);
export type RollbackModuleBody = Static<typeof RollbackModuleBody>;

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS });
export const ModuleParams = Type.Object({ id: Id });
export const ModuleVersionParams = Type.Object({ id: Id, versionId: Id });

/** GET /actions/modules: "Paging is disabled if parameter not sent". */
export const ModulePageQuery = Type.Object(
  { page: Type.Optional(OffsetPagingQuery.page), per_page: Type.Optional(OffsetPagingQuery.per_page) },
  { additionalProperties: false },
);
export type ModulePageQuery = Static<typeof ModulePageQuery>;

const DependencyOut = Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false });
const SecretOut = Type.Object({ name: Type.String(), updated_at: Type.String() }, { additionalProperties: false });

const VersionMembers = {
  id: Type.String(),
  version_number: Type.Number(),
  code: Type.String(),
  dependencies: Type.Array(DependencyOut),
  secrets: Type.Array(SecretOut),
  created_at: Type.String(),
};

export const ModuleVersionResponse = Type.Object({ ...VersionMembers, module_id: Type.String() }, { additionalProperties: false });
export type ModuleVersionResponse = Static<typeof ModuleVersionResponse>;

const ModuleMembers = {
  id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  dependencies: Type.Array(DependencyOut),
  secrets: Type.Array(SecretOut),
  actions_using_module_total: Type.Number(),
  all_changes_published: Type.Boolean(),
  latest_version_number: Type.Optional(Type.Number()),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const ModuleResponse = Type.Object(
  { ...ModuleMembers, latest_version: Type.Optional(Type.Object(VersionMembers, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type ModuleResponse = Static<typeof ModuleResponse>;

const ModuleListItem = Type.Object(ModuleMembers, { additionalProperties: false });
export type ModuleListItem = Static<typeof ModuleListItem>;

const Paging = { total: Type.Optional(Type.Number()), page: Type.Optional(Type.Number()), per_page: Type.Optional(Type.Number()) };

export const ModuleListResponse = Type.Object({ modules: Type.Array(ModuleListItem), ...Paging }, { additionalProperties: false });
export const ModuleVersionListResponse = Type.Object({ versions: Type.Array(ModuleVersionResponse), ...Paging }, { additionalProperties: false });

const TriggerRef = Type.Object({ id: Type.String(), version: Type.String() }, { additionalProperties: false });
export const ModuleActionsResponse = Type.Object(
  {
    actions: Type.Array(
      Type.Object(
        { action_id: Type.String(), action_name: Type.String(), module_version_id: Type.String(), module_version_number: Type.Number(), supported_triggers: Type.Array(TriggerRef) },
        { additionalProperties: false },
      ),
    ),
    ...Paging,
  },
  { additionalProperties: false },
);
