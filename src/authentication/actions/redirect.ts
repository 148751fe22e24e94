/**
 * A post-login action's redirect (`api.redirect.sendUserTo`, actions-wire-notes
 * §2.3): the login is suspended on its waiting authorization request and the
 * browser is sent to the action's URL with a `state` that brings it back to
 * `/continue` (./continue.ts).
 *
 * The `state` is sealed (AES-256-GCM under the master key, bound to the
 * tenant): it names the transaction and carries a one-use nonce, and expires
 * with the transaction. The server keeps only the nonce's hash, cleared by
 * the `/continue` that resumes the login, so a state is good once; the
 * transaction itself is usable only from the browser that started it and
 * for the session it was answered for. What the actions decided so far
 * stays on the server, never in the URL.
 *
 * The URL is the action's to choose, as in the service (any `https:` URL;
 * `http:` only to a loopback host; never another scheme: post-login.ts
 * `redirectTarget`).
 */
import type { FastifyReply } from 'fastify';
import type { PostLoginOutcome } from '../../domain/actions-runtime/triggers/post-login.js';
import type { JsonObject } from '../../domain/json.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { pageErrors } from '../errors.js';
import { html, page, sendPage } from '../pages/html.js';
import type { Interaction, StepDeps } from '../interaction/step.js';
import type { SuspendedActions } from './login-actions.js';

/** The opened `state` of `/continue`: the transaction, the nonce, when it ends (ms). */
export interface ContinueState {
  t: string;
  n: string;
  exp: number;
}

/** The longest `state` taken back (a sealed transaction id and nonce is about 150 characters). */
const MAX_STATE_LENGTH = 1024;

const stateContext = (tenant: Tenant) => `actions continue state:${tenant.id}`;

/** The state's content, when it is this tenant's, intact and not expired. */
export function openContinueState(ctx: { readonly box: SecretBox; readonly now: () => number }, tenant: Tenant, state: string | undefined): ContinueState | undefined {
  if (!state || state.length > MAX_STATE_LENGTH) return undefined;
  try {
    const opened = JSON.parse(ctx.box.openString(state, stateContext(tenant))) as Partial<ContinueState>;
    if (typeof opened.t !== 'string' || typeof opened.n !== 'string' || typeof opened.exp !== 'number') return undefined;
    return opened.exp > ctx.now() ? (opened as ContinueState) : undefined;
  } catch {
    return undefined;
  }
}

/** Suspends the login and sends the browser to the action's URL with the sealed `state`. */
export async function suspendLogin(deps: StepDeps, reply: FastifyReply, interaction: Interaction, outcome: PostLoginOutcome): Promise<FastifyReply> {
  const { tenant } = interaction;
  const { ctx, transactions } = deps;
  const redirect = outcome.redirect!;
  const id = interaction.transactionId ?? (await transactions.start(tenant, interaction.request, interaction.browser));
  // The login is bound to this session: /continue resumes it only for the same one.
  if (!(await transactions.record(tenant, id, interaction.completed, interaction.authenticated?.session.id_hash))) throw pageErrors.expiredTransaction();
  const nonce = newSecret();
  // The metadata set so far is already written (post-login.ts): only what is still to apply is kept.
  const { redirect: _sent, ...rest } = outcome;
  const suspended: SuspendedActions = { versionId: redirect.versionId, outcome: { ...rest, appMetadata: {}, userMetadata: {} } };
  if (!(await transactions.suspend(tenant, id, secretHash(nonce), suspended as unknown as JsonObject))) throw pageErrors.expiredTransaction();
  const state: ContinueState = { t: id, n: nonce, exp: ctx.now() + lifetimeOf(tenant, 'authorize_transaction') * 1000 };
  const target = new URL(redirect.url);
  target.searchParams.set('state', ctx.box.seal(JSON.stringify(state), stateContext(tenant)));
  // Answering a form of the hosted pages, whose CSP lets a form redirect only to this origin and the
  // application's: a page that moves on (a refresh is a navigation, not a form redirect).
  if (reply.request.method === 'POST') {
    return sendPage(reply, 200, page('Continue', html`<meta http-equiv="refresh" content="0;url=${target.href}"><h1>One more step</h1><p><a id="continue" href="${target.href}">Continue</a></p>`));
  }
  return reply.code(302).header('Location', target.href).header('Cache-Control', 'no-store').send();
}
