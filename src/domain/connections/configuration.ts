/**
 * A connection's `options.configuration`: the settings its scripts read as
 * `configuration.X` (a legacy store's address and API key). Values are
 * sealed at rest (AES-256-GCM under the master key, each bound to its
 * tenant, connection and name) and only the sealed form is ever stored or
 * answered: the Management API returns it in place of the value, as the
 * service returns its own encrypted form, so an exported connection imported
 * again (the sealed value sent back unchanged) keeps its settings, and a
 * value is never read back. The plaintext exists only in the sandbox run.
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** At most this many settings, each value at most this long (the service sets no documented bound). */
export const MAX_CONFIGURATION_ENTRIES = 100;
export const MAX_CONFIGURATION_VALUE_CHARS = 4096;
const MAX_NAME_CHARS = 255;
/** The sealed form of the longest value: base64url of it and its tag, with the prefix and iv. */
const SEALED_MAX_CHARS = Math.ceil(((MAX_CONFIGURATION_VALUE_CHARS * 4 + 16) * 4) / 3) + 32;

const context = (tenantId: string, connectionId: string, name: string) => `connection_configuration:${tenantId}:${connectionId}:${name}`;

/** What is wrong with a `configuration` member; undefined when it is fine. */
export function configurationProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'Expected type object';
  const entries = Object.entries(value);
  if (entries.length > MAX_CONFIGURATION_ENTRIES) return `Too many properties (${entries.length}), maximum ${MAX_CONFIGURATION_ENTRIES}`;
  for (const [name, item] of entries) {
    if (name.length === 0 || name.length > MAX_NAME_CHARS) return `Property name must be 1 to ${MAX_NAME_CHARS} characters`;
    if (typeof item !== 'string') return `Expected type string for ${name}`;
    // A sealed value sent back (`v1.…`) is longer than the value it holds.
    const bound = item.startsWith('v1.') ? SEALED_MAX_CHARS : MAX_CONFIGURATION_VALUE_CHARS;
    if (item.length > bound) return `String is too long for ${name} (${item.length} chars), maximum ${MAX_CONFIGURATION_VALUE_CHARS}`;
  }
  return undefined;
}

/**
 * The configuration as stored: each value sealed, except one sent back as
 * the stored sealed form (an exported connection imported again), which is
 * kept. Absent from `options`, the stored configuration is kept.
 */
export function sealConfiguration(box: SecretBox, tenantId: string, connectionId: string, options: Record<string, unknown>, stored: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const previous = (typeof stored.configuration === 'object' && stored.configuration !== null ? stored.configuration : {}) as Record<string, unknown>;
  const given = options.configuration;
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given) || Object.values(given).some((v) => typeof v !== 'string'))) return options;
  if (given === undefined) {
    return Object.keys(previous).length > 0 ? { ...options, configuration: previous } : options;
  }
  const sealed: Record<string, string> = {};
  for (const [name, value] of Object.entries(given as Record<string, string>)) {
    if (previous[name] === value) sealed[name] = value;
    else sealed[name] = box.seal(value, context(tenantId, connectionId, name));
  }
  return { ...options, configuration: sealed };
}

/** The plaintext settings for a script's run; a value that does not open (another connection's) is left out. */
export function openConfiguration(box: SecretBox, tenantId: string, connectionId: string, options: Readonly<Record<string, unknown>>): Record<string, string> {
  const stored = (typeof options.configuration === 'object' && options.configuration !== null ? options.configuration : {}) as Record<string, unknown>;
  const open: Record<string, string> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (typeof value !== 'string') continue;
    try {
      open[name] = box.openString(value, context(tenantId, connectionId, name));
    } catch {
      // not sealed for this connection: never handed to the script
    }
  }
  return open;
}
