/**
 * Action secrets at rest: each value sealed under the master key, bound to
 * the tenant, the action and the secret's name (a sealed value copied onto
 * another action or name does not open). Versions keep the sealed values of
 * the draft they were made from.
 */
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { StoredActionSecret } from './rows.js';

export function actionSecretContext(tenantId: string, actionId: string, name: string): string {
  return `action_secret:${tenantId}:${actionId}:${name}`;
}

/**
 * The secrets a create or PATCH gives, sealed: the list replaces the stored
 * one as a whole. An entry without `value` keeps the value stored under that
 * name (what auth0-deploy-cli sends back after an export, which holds names
 * only), or is empty when there is none.
 */
export function sealActionSecrets(
  box: SecretBox,
  tenantId: string,
  actionId: string,
  given: { name: string; value?: string }[],
  stored: StoredActionSecret[],
  now: string,
): StoredActionSecret[] {
  return sealNamed(box, tenantId, (name) => actionSecretContext(tenantId, actionId, name), given, stored, now);
}

/** Seals each given secret under `contextOf(name)`; a name without a value keeps the stored one. */
function sealNamed(box: SecretBox, tenantId: string, contextOf: (name: string) => string, given: { name: string; value?: string }[], stored: StoredActionSecret[], now: string): StoredActionSecret[] {
  return given.map(({ name, value }) => {
    const kept = stored.find((s) => s.name === name);
    if (value === undefined && kept) return kept;
    return { name, value_enc: box.seal(value ?? '', contextOf(name), tenantId), updated_at: now };
  });
}

function openNamed(box: SecretBox, contextOf: (name: string) => string, stored: StoredActionSecret[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of stored) out[s.name] = box.openString(s.value_enc, contextOf(s.name));
  return out;
}

export function openActionSecrets(box: SecretBox, tenantId: string, actionId: string, stored: StoredActionSecret[]): Record<string, string> {
  return openNamed(box, (name) => actionSecretContext(tenantId, actionId, name), stored);
}

/** Whether two sets of secrets hold the same names and values (the draft against the deployed version). */
export function sameSecrets(a: StoredActionSecret[], b: StoredActionSecret[]): boolean {
  return a.length === b.length && a.every((s, i) => s.name === b[i]!.name && s.value_enc === b[i]!.value_enc);
}

/** The sealing context of a module's secret: bound to the tenant, the module and the name. */
export function actionModuleSecretContext(tenantId: string, moduleId: string, name: string): string {
  return `action_module_secret:${tenantId}:${moduleId}:${name}`;
}

/** A module's secrets as given (the list replaces the stored one), sealed; a name without a value keeps the stored one. */
export function sealModuleSecrets(box: SecretBox, tenantId: string, moduleId: string, given: { name: string; value?: string }[], stored: StoredActionSecret[], now: string): StoredActionSecret[] {
  return sealNamed(box, tenantId, (name) => actionModuleSecretContext(tenantId, moduleId, name), given, stored, now);
}

export function openModuleSecrets(box: SecretBox, tenantId: string, moduleId: string, stored: StoredActionSecret[]): Record<string, string> {
  return openNamed(box, (name) => actionModuleSecretContext(tenantId, moduleId, name), stored);
}
