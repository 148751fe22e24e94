/**
 * The `duo` second factor's rules (../guardian/duo.ts holds its settings):
 * whether a tenant's logins go to Duo (the factor on and its settings
 * complete), the Universal Prompt's URL for a login, and the check of Duo's
 * answer (src/platform/duo/universal-prompt.ts speaks the protocol).
 *
 * A login is bound to Duo's round trip by its transaction: Duo's `state` is
 * the transaction id (the page's own `state`, 22 characters or more as Duo
 * requires), the nonce a hash of it, and the id_token must name the user
 * the prompt was for: the user's email, else the user id (Gatehouse's
 * choice: Duo matches users by user name, and the service does not say
 * which profile member it sends).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Config } from '../../platform/config.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { upstreamFetch, type UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import { authorizationUrl, duoBaseUrl, exchangeCode, type DuoApplication, type DuoLogin } from '../../platform/duo/universal-prompt.js';
import { factorEnabled, REDIRECT_FACTOR } from './factors/registry.js';
import { duoSecretKeyContext, type GuardianDuoStore } from '../guardian/duo.js';
import type { MfaSettingsStore } from './store.js';

export { DuoError } from '../../platform/duo/universal-prompt.js';

/** What the Duo factor touches. */
export interface DuoFactorContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly config: Pick<Config, 'duo' | 'outbound'>;
  readonly stores: { readonly guardianDuo: GuardianDuoStore; readonly mfa: Pick<MfaSettingsStore, 'enabledFactors'> };
}

/** The tenant's Duo application when its logins go to Duo; undefined when the factor is off or its settings incomplete. */
export async function duoApplication(ctx: DuoFactorContext, tenantId: string): Promise<DuoApplication | undefined> {
  const enabled = await ctx.stores.mfa.enabledFactors(tenantId);
  if (!factorEnabled(enabled, REDIRECT_FACTOR)) return undefined;
  const settings = await ctx.stores.guardianDuo.get(tenantId);
  if (!settings?.ikey || !settings.host || !settings.skey_enc) return undefined;
  return { ikey: settings.ikey, skey: ctx.box.openString(settings.skey_enc, duoSecretKeyContext(tenantId)), baseUrl: duoBaseUrl(settings.host, ctx.config.duo.url) };
}

/** The Duo user name of a user: the email, else the user id. */
export function duoUsername(user: { email?: string | null; user_id: string }): string {
  return user.email ?? user.user_id;
}

/** The login's binding to Duo's round trip (see the module comment). */
export function duoLogin(transactionId: string, username: string, redirectUri: string): DuoLogin {
  return { redirectUri, state: transactionId, nonce: createHash('sha256').update(`duo-nonce:${transactionId}`).digest('base64url'), username };
}

export function duoPromptUrl(ctx: Pick<DuoFactorContext, 'now'>, app: DuoApplication, login: DuoLogin): Promise<string> {
  return authorizationUrl(app, login, ctx.now());
}

let guarded: { policy: DuoFactorContext['config']['outbound']; caFile: string | undefined; fetch: UpstreamFetch } | undefined;

/** The guarded fetch of Duo's token requests: one per outbound policy and CA file (its connections are kept alive). */
function duoFetch(ctx: DuoFactorContext): UpstreamFetch {
  const { outbound, duo } = ctx.config;
  if (guarded?.policy !== outbound || guarded.caFile !== duo.caFile) {
    guarded = { policy: outbound, caFile: duo.caFile, fetch: upstreamFetch({ outbound, ...(duo.caFile !== undefined && { ca: fs.readFileSync(duo.caFile) }) }) };
  }
  return guarded.fetch;
}

/** Redeems Duo's code and checks its answer; rejects with a DuoError when Duo's answer does not let the login on. */
export async function verifyDuo(ctx: DuoFactorContext, app: DuoApplication, login: DuoLogin, code: string): Promise<void> {
  await exchangeCode(app, login, code, duoFetch(ctx), ctx.now());
}
