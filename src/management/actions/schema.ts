/**
 * Schemas of Actions in the Management API, from the service's OpenAPI
 * document (`CreateActionRequestContent`, `UpdateActionRequestContent`,
 * `ActionVersion`, `ActionBinding`, `UpdateActionBindingsRequestContent`,
 * `GetActionExecutionResponseContent`) and the shapes real traffic shows
 * (actions-wire-notes §1.2): secrets are written with their value and read
 * as `{name, updated_at}` only, the response schemas have no member that
 * could carry a value. Bounds are the service's documented limits (§1.4,
 * §1.5, §2.2).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { OffsetPagingQuery } from '../paging.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';
import { RUNTIMES } from '../../domain/actions/triggers.js';

/** The document's `ActionTriggerTypeEnum`. */
export const TRIGGER_IDS = [
  'post-login', 'credentials-exchange', 'pre-user-registration', 'post-user-registration', 'post-change-password', 'send-phone-message',
  'custom-phone-provider', 'custom-email-provider', 'password-reset-post-challenge', 'custom-token-exchange', 'event-stream',
  'password-hash-migration', 'login-post-identifier', 'signup-post-identifier',
] as const;
const TriggerId = Type.Union(TRIGGER_IDS.map((id) => Type.Literal(id)), { description: 'An actions extensibility point.' });

/** An action's code: "should not exceed 100 kB" (the service's limitations page). */
export const MAX_CODE_LENGTH = 100 * 1024;
export const MAX_SECRETS = 30;
export const MAX_DEPENDENCIES = 10;
export const MAX_BINDINGS = 20;

const Name = Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS, description: 'The name of an action.' });

const TriggerBody = Type.Object(
  {
    id: TriggerId,
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 16, pattern: NO_CONTROL_CHARACTERS, description: 'The version of a trigger. v1, v2, etc.' })),
    // Read-only members of the trigger as GET /actions/triggers lists it; accepted and ignored, as the document allows them.
    status: Type.Optional(Type.String({ maxLength: 64 })),
    runtimes: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 16 })),
    default_runtime: Type.Optional(Type.String({ maxLength: 32 })),
    compatible_triggers: Type.Optional(Type.Array(Type.Object({ id: Type.String({ maxLength: 64 }), version: Type.String({ maxLength: 16 }) }), { maxItems: 16 })),
    binding_policy: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false },
);

/** An npm package name (npm's own rules: lower case, optionally scoped, at most 214 characters). */
export const PACKAGE_NAME = '^(@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$';
/** A version, range or tag; never a URL, path or git spec (no `:` or `/`), which would install from elsewhere than the registry. */
export const PACKAGE_VERSION = '^[0-9A-Za-z.^~<>=*|+\\- ]+$';

const Dependency = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 214, pattern: PACKAGE_NAME, description: 'name is the name of the npm module, e.g. lodash' }),
    version: Type.String({ minLength: 1, maxLength: 64, pattern: PACKAGE_VERSION, description: 'the version of the npm module, e.g. 4.17.1' }),
    registry_url: Type.Optional(Type.String({ maxLength: 2048, pattern: NO_CONTROL_CHARACTERS, description: 'registry_url is an optional value used primarily for private npm registries.' })),
  },
  { additionalProperties: false },
);

const SecretBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_\\-.]+$', description: 'The name of the particular secret, e.g. API_KEY.' }),
    value: Type.Optional(Type.String({ maxLength: 4096, description: 'The value of the particular secret. Never returned by the API.' })),
    // auth0-deploy-cli's files may carry the `updated_at` a read gave; ignored.
    updated_at: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);

/** The most modules one action may use. */
export const MAX_ACTION_MODULES = 10;

/**
 * The document's `ActionModuleReference` as a request names a module version:
 * the module by `module_id` or `module_name`, the version by
 * `module_version_id` or `module_version_number` (neither: the module's latest
 * published version). The answer always carries all four.
 */
const ModuleReference = Type.Object(
  {
    module_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'The unique ID of the module.' })),
    module_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS, description: 'The name of the module.' })),
    module_version_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'The ID of the specific module version.' })),
    module_version_number: Type.Optional(Type.Integer({ minimum: 1, description: 'The version number of the module.' })),
  },
  { additionalProperties: false },
);
export type ModuleReferenceBody = Static<typeof ModuleReference>;
const ModuleReferenceOut = Type.Object(
  { module_id: Type.String(), module_name: Type.String(), module_version_id: Type.String(), module_version_number: Type.Number() },
  { additionalProperties: false },
);

const DraftMembers = {
  supported_triggers: Type.Array(TriggerBody, { minItems: 1, maxItems: 1, description: 'The list of triggers that this action supports. At this time, an action can only target a single trigger at a time.' }),
  code: Type.Optional(Type.String({ maxLength: MAX_CODE_LENGTH, description: 'The source code of the action.' })),
  dependencies: Type.Optional(Type.Array(Dependency, { maxItems: MAX_DEPENDENCIES })),
  runtime: Type.Optional(Type.Union(RUNTIMES.map((r) => Type.Literal(r)), { description: 'The Node runtime. For example: `node22`, defaults to `node22`' })),
  secrets: Type.Optional(Type.Array(SecretBody, { maxItems: MAX_SECRETS })),
  modules: Type.Optional(Type.Array(ModuleReference, { maxItems: MAX_ACTION_MODULES, description: 'The list of action modules and their versions used by this action.' })),
};

export const CreateActionBody = Type.Object(
  { name: Name, ...DraftMembers, deploy: Type.Optional(Type.Boolean({ description: 'True if the action should be deployed after creation.' })) },
  { additionalProperties: false },
);
export type CreateActionBody = Static<typeof CreateActionBody>;

export const UpdateActionBody = Type.Object(
  { name: Type.Optional(Name), ...DraftMembers, supported_triggers: Type.Optional(DraftMembers.supported_triggers) },
  { additionalProperties: false },
);
export type UpdateActionBody = Static<typeof UpdateActionBody>;

const TriggerRef = Type.Object({ id: Type.String(), version: Type.String() }, { additionalProperties: false });
const DependencyOut = Type.Object({ name: Type.String(), version: Type.String(), registry_url: Type.Optional(Type.String()) }, { additionalProperties: false });
/** A secret as every response shows it: its name and when it was set, never its value. */
const SecretOut = Type.Object({ name: Type.String(), updated_at: Type.String() }, { additionalProperties: false });
const ErrorOut = Type.Object({ id: Type.String(), msg: Type.String(), url: Type.Optional(Type.String()) }, { additionalProperties: false });

const ActionBaseMembers = {
  id: Type.String(),
  name: Type.String(),
  supported_triggers: Type.Array(TriggerRef),
  all_changes_deployed: Type.Boolean(),
  created_at: Type.String(),
  updated_at: Type.String(),
};

const VersionMembers = {
  id: Type.String(),
  action_id: Type.String(),
  code: Type.String(),
  dependencies: Type.Array(DependencyOut),
  deployed: Type.Boolean(),
  runtime: Type.String(),
  secrets: Type.Array(SecretOut),
  modules: Type.Optional(Type.Array(ModuleReferenceOut)),
  status: Type.String(),
  number: Type.Number(),
  errors: Type.Optional(Type.Array(ErrorOut)),
  built_at: Type.Optional(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
  supported_triggers: Type.Array(TriggerRef),
};

/** A version inside an action (`deployed_version`). */
export const DeployedVersionResponse = Type.Object(VersionMembers, { additionalProperties: false });

/** A version with its action (GET …/versions/{id}, deploy). */
export const ActionVersionResponse = Type.Object(
  { ...VersionMembers, action: Type.Object(ActionBaseMembers, { additionalProperties: false }) },
  { additionalProperties: false },
);
export type ActionVersionResponse = Static<typeof ActionVersionResponse>;

export const ActionResponse = Type.Object(
  {
    ...ActionBaseMembers,
    code: Type.String(),
    dependencies: Type.Array(DependencyOut),
    runtime: Type.String(),
    status: Type.String(),
    secrets: Type.Array(SecretOut),
    modules: Type.Optional(Type.Array(ModuleReferenceOut)),
    deployed_version: Type.Optional(DeployedVersionResponse),
    built_at: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ActionResponse = Static<typeof ActionResponse>;

/** Lists of Actions as real traffic shows them: `total` and `page` are left out when 0. */
function pageList(key: string, item: TSchema): TSchema {
  return Type.Object(
    { [key]: Type.Array(item), total: Type.Optional(Type.Number()), page: Type.Optional(Type.Number()), per_page: Type.Number() },
    { additionalProperties: false },
  );
}

export const ActionListResponse = pageList('actions', ActionResponse);
export const VersionListResponse = pageList('versions', ActionVersionResponse);

export const ListActionsQuery = Type.Object(
  {
    triggerId: Type.Optional(TriggerId),
    actionName: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS })),
    deployed: Type.Optional(Type.Boolean()),
    installed: Type.Optional(Type.Boolean()),
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
  },
  { additionalProperties: false },
);
export type ListActionsQuery = Static<typeof ListActionsQuery>;

export const PageQuery = Type.Object(
  { page: Type.Optional(OffsetPagingQuery.page), per_page: Type.Optional(OffsetPagingQuery.per_page) },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

const Id = Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS });
export const ActionParams = Type.Object({ id: Id });
export const VersionParams = Type.Object({ actionId: Id, id: Id });
export const ActionIdParams = Type.Object({ actionId: Id });
export const TriggerParams = Type.Object({ triggerId: TriggerId });
export const ExecutionParams = Type.Object({ id: Id });

export const DeleteActionQuery = Type.Object({ force: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

export const DeployVersionBody = Type.Union([
  Type.Object({ update_draft: Type.Optional(Type.Boolean({ description: 'True if the draft of the action should be updated with the reverted version.' })) }, { additionalProperties: false }),
  Type.Null(),
]);
export type DeployVersionBody = Static<typeof DeployVersionBody>;

export const TriggerResponse = Type.Object(
  {
    id: Type.String(),
    version: Type.String(),
    status: Type.String(),
    runtimes: Type.Array(Type.String()),
    default_runtime: Type.String(),
    compatible_triggers: Type.Array(TriggerRef),
    binding_policy: Type.String(),
  },
  { additionalProperties: false },
);
export const TriggerListResponse = Type.Object({ triggers: Type.Array(TriggerResponse) }, { additionalProperties: false });

const BindingRef = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.Literal('binding_id'), Type.Literal('action_id'), Type.Literal('action_name')], { default: 'action_name' })),
    value: Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS }),
  },
  { additionalProperties: false },
);

export const UpdateBindingsBody = Type.Object(
  {
    bindings: Type.Optional(
      Type.Array(
        Type.Object(
          {
            ref: BindingRef,
            display_name: Type.Optional(Type.String({ maxLength: 255, pattern: NO_CONTROL_CHARACTERS, description: 'The name of the binding.' })),
            secrets: Type.Optional(Type.Array(SecretBody, { maxItems: 0, description: 'Binding secrets (the service\'s Marketplace integrations) are not available in Gatehouse.' })),
          },
          { additionalProperties: false },
        ),
        { maxItems: MAX_BINDINGS },
      ),
    ),
  },
  { additionalProperties: false },
);
export type UpdateBindingsBody = Static<typeof UpdateBindingsBody>;

export const BindingResponse = Type.Object(
  { id: Type.String(), trigger_id: Type.String(), display_name: Type.String(), action: ActionResponse, created_at: Type.String(), updated_at: Type.String() },
  { additionalProperties: false },
);
export type BindingResponse = Static<typeof BindingResponse>;
export const BindingListResponse = pageList('bindings', BindingResponse);
export const UpdatedBindingsResponse = Type.Object({ bindings: Type.Array(BindingResponse) }, { additionalProperties: false });

export const ExecutionResponse = Type.Object(
  {
    id: Type.String(),
    trigger_id: Type.String(),
    status: Type.String(),
    results: Type.Array(
      Type.Object(
        { action_name: Type.String(), error: Type.Optional(ErrorOut), started_at: Type.String(), ended_at: Type.String() },
        { additionalProperties: false },
      ),
    ),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
export type ExecutionResponse = Static<typeof ExecutionResponse>;
