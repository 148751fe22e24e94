/**
 * Database connections (`auth0`): users with a password in Gatehouse's
 * store; options are free-form (password policy and the rest are read where
 * they apply), except a custom database's: with
 * `enabledDatabaseCustomization`, `customScripts` must hold a `login`
 * script (and `get_user` under `import_mode`, as the service requires for
 * lazy migration), each a non-empty string of at most 51,200 characters,
 * named as the service names them; `configuration` is a map of strings
 * (../configuration.ts). How they run: src/domain/users/custom-database.ts.
 */
import { configurationProblem } from '../configuration.js';
import { MAX_SCRIPT_CHARS } from '../scripts.js';
import { plainUserId, type ConnectionStrategy, type OptionsProblem } from './strategy.js';

export const DATABASE_STRATEGY = 'auth0';

/** The service's custom database scripts (`ConnectionCustomScripts`). */
export const CUSTOM_SCRIPTS = ['login', 'get_user', 'create', 'verify', 'change_password', 'delete', 'change_email', 'change_username', 'change_phone_number'] as const;
export type CustomScriptName = (typeof CUSTOM_SCRIPTS)[number];

/** Whether the connection's users live in the tenant's own store reached by scripts. */
export const usesCustomScripts = (options: Readonly<Record<string, unknown>>): boolean => options.enabledDatabaseCustomization === true;

/** The connection's script of that name, when it has one and customisation is on. */
export function customScript(options: Readonly<Record<string, unknown>>, name: CustomScriptName): string | undefined {
  if (!usesCustomScripts(options)) return undefined;
  const scripts = options.customScripts as Record<string, unknown> | undefined;
  const script = scripts?.[name];
  return typeof script === 'string' && script.trim() !== '' ? script : undefined;
}

function databaseOptionsProblem(options: Record<string, unknown>): OptionsProblem | undefined {
  const configuration = configurationProblem(options.configuration);
  if (configuration) return { property: 'options.configuration', message: configuration };
  for (const flag of ['enabledDatabaseCustomization', 'import_mode'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') return { property: `options.${flag}`, message: 'Expected type boolean' };
  }
  const scripts = options.customScripts;
  if (scripts !== undefined) {
    if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return { property: 'options.customScripts', message: 'Expected type object' };
    for (const [name, script] of Object.entries(scripts)) {
      const property = `options.customScripts.${name}`;
      if (!(CUSTOM_SCRIPTS as readonly string[]).includes(name)) return { property, message: `No such script; the scripts are ${CUSTOM_SCRIPTS.join(', ')}` };
      if (typeof script !== 'string') return { property, message: 'Expected type string' };
      if (script.trim().length === 0) return { property, message: 'String is too short (0 chars), minimum 1' };
      if (script.length > MAX_SCRIPT_CHARS) return { property, message: `String is too long (${script.length} chars), maximum ${MAX_SCRIPT_CHARS}` };
    }
  }
  if (options.enabledDatabaseCustomization === true) {
    const given = (scripts ?? {}) as Record<string, unknown>;
    if (given.login === undefined) return { property: 'options.customScripts.login', message: 'is required when enabledDatabaseCustomization is true' };
    if (options.import_mode === true && given.get_user === undefined) return { property: 'options.customScripts.get_user', message: 'is required when import_mode is true' };
  }
  return undefined;
}

export const auth0Strategy: ConnectionStrategy = {
  name: DATABASE_STRATEGY,
  kind: 'database',
  isSocial: false,
  optionsProblem: databaseOptionsProblem,
  userId: plainUserId(DATABASE_STRATEGY),
};
