/**
 * Logging in through a SAML enterprise connection (`strategy: "samlp"`),
 * SP-initiated: how the federated step (../interaction/steps/federated.ts)
 * starts it (./index.ts).
 *
 * - `start` sends the browser to the IdP's `signInEndpoint` with an
 *   AuthnRequest (HTTP-Redirect, or HTTP-POST per `protocolBinding`; signed
 *   with the tenant's key when `signSAMLRequest`). Its ID is an HMAC of the
 *   transaction and the connection under a key derived from the master key,
 *   and its RelayState the transaction id, so a Response is matched to the
 *   request that asked for it without storing anything: an `InResponseTo`
 *   that is not the ID of this transaction's request is unknown and refused
 *   (./callback.ts).
 * - Home realm discovery reads the connection's `domain_aliases`.
 * - The IdP posts its Response cross-site to `/login/callback`; the login
 *   goes on through the sealed hop (../connections/hop.ts).
 */
import type { FastifyReply } from 'fastify';
import { samlpConnectionSettings, spEntityId } from '../../domain/connections/samlp-connection.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { HTTP_POST_BINDING } from '../../domain/clients/samlp-addon.js';
import { formPost } from '../authorize/response-modes/form-post.js';
import type { Interaction, StepDeps } from '../interaction/step.js';
import { sendToUpstream } from '../connections/upstream-redirect.js';
import { authnRequest, redirectUrl } from '../samlp/xml-messages.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { UserStore } from '../../domain/users/store.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** This tenant's ACS URL for a connection (wire notes §14). */
export const acsUrl = (tenant: Tenant, connection: string) => `https://${tenant.domain}/login/callback?connection=${encodeURIComponent(connection)}`;

/** What starting a login at a SAML identity provider touches. */
export interface SamlConnectionLoginContext {
  readonly box: SecretBox;
  formTokens(purpose: string): FormTokens;
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly stores: { readonly connections: ConnectionStore; readonly users: UserStore };
}

/** The ID of the AuthnRequest of a transaction to a connection. */
export function authnRequestId(ctx: SamlConnectionLoginContext, tenant: Tenant, transactionId: string, connectionId: string): string {
  return `_${ctx.formTokens('gatehouse samlp authn request').token(tenant.id, secretHash(transactionId), connectionId)}`;
}

/** Sends the browser to the connection's IdP with an AuthnRequest for this transaction. */
export async function sendAuthnRequest(
  deps: StepDeps,
  interaction: Interaction,
  reply: FastifyReply,
  connection: ConnectionRow,
  options: { fromForm?: boolean },
): Promise<FastifyReply> {
  const { ctx } = deps;
  const { tenant } = interaction;
  const settings = samlpConnectionSettings(connection.options);
  const transactionId = interaction.transactionId!;
  const input = {
    id: authnRequestId(ctx, tenant, transactionId, connection.id),
    issuer: spEntityId(tenant.name, connection.name),
    destination: settings.signInEndpoint,
    acs: acsUrl(tenant, connection.name),
    now: ctx.now(),
    settings,
  };
  const key = settings.signSAMLRequest ? (await ctx.keyring.keys(tenant.id)).signing : undefined;
  if (settings.protocolBinding === HTTP_POST_BINDING) {
    const xml = authnRequest(input, key);
    return formPost.send(reply, settings.signInEndpoint, { SAMLRequest: Buffer.from(xml, 'utf8').toString('base64'), RelayState: transactionId });
  }
  const url = redirectUrl(settings.signInEndpoint, 'SAMLRequest', authnRequest(input, undefined), transactionId, key, settings);
  return sendToUpstream(reply, url, options.fromForm);
}
