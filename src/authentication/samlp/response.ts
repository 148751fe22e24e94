/**
 * The answer to a SAML request once the user is logged in (a ProtocolResponse
 * of the interaction policy): the signed samlp:Response, posted by the
 * browser to the ACS URL kept with the request (HTTP-POST binding, SAML
 * Bindings §3.5), with the request's RelayState. The ACS URL was checked
 * against the client's callbacks when the request arrived (./endpoint.ts).
 */
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { samlpSettings, type SamlpSettings } from '../../domain/clients/samlp-addon.js';
import type { SessionRow, UserRow } from '../../domain/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { formPost } from '../authorize/response-modes/form-post.js';
import { pageErrors } from '../errors.js';
import type { Interaction, StepDeps, ProtocolResponse } from '../interaction/step.js';
import { nameIdentifier, samlAttributes, samlProfile, type Attributes } from './attributes.js';
import { loginResponse } from './xml-messages.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { SamlpSessionStore } from '../../domain/samlp-sessions/store.js';

export const SAMLP = 'samlp';

/** What a SAML request keeps while the user logs in (AuthorizeRequest.protocol.params). */
export interface SamlpRequestParams {
  acs: string;
  audience: string;
  in_response_to?: string;
  relay_state?: string;
}

/** `urn:{domain}`, or the addon's `issuer`. */
export function samlIssuer(tenant: Tenant, settings: SamlpSettings): string {
  return settings.issuer ?? `urn:${tenant.domain}`;
}

/**
 * The SessionIndex of a session at one SP: derived from the session's stored
 * hash and the client, so it names the session to that SP without revealing
 * anything that would let the SP (or anyone reading the assertion) use it.
 */
export function sessionIndexOf(session: Pick<SessionRow, 'id_hash'>, clientId: string): string {
  return `_${createHash('sha256').update(`${session.id_hash}\0${clientId}`).digest('hex').slice(0, 40)}`;
}

/** What answering a SAML request touches. */
export interface SamlResponseContext {
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly stores: { readonly connections: ConnectionStore; readonly samlpSessions: SamlpSessionStore };
}

/** The identity the profile names: the user's connection and its provider. */
async function identityOf(ctx: SamlResponseContext, tenant: Tenant, user: UserRow) {
  const connection = await ctx.stores.connections.get(tenant.id, user.connection_id);
  const strategy = connection?.strategy ?? 'auth0';
  return { provider: strategy, connection: connection?.name ?? '', isSocial: false };
}

/** The user's attributes and NameID for a client, per its settings (./attributes.ts). */
export async function subjectOf(ctx: SamlResponseContext, tenant: Tenant, clientId: string, settings: SamlpSettings, user: UserRow): Promise<{ attributes: Attributes; nameId: string }> {
  const attributes = samlAttributes(samlProfile(user, clientId, await identityOf(ctx, tenant, user)), settings);
  const nameId = nameIdentifier(attributes, settings);
  if (nameId === undefined) throw pageErrors.authorize("No attribute named by the application's nameIdentifierProbes has a value for this user.");
  return { attributes, nameId };
}

/** The signed Response for `authenticated` to the SP of `params`, as base64. */
export async function samlResponseFor(
  ctx: SamlResponseContext,
  tenant: Tenant,
  clientId: string,
  settings: SamlpSettings,
  params: SamlpRequestParams,
  user: UserRow,
  session: SessionRow,
): Promise<string> {
  const { attributes, nameId } = await subjectOf(ctx, tenant, clientId, settings, user);
  const { signing } = await ctx.keyring.keys(tenant.id);
  const sessionIndex = sessionIndexOf(session, clientId);
  // Single logout tells this SP, by the NameID and SessionIndex it was given (./logout.ts).
  await ctx.stores.samlpSessions.record({
    tenant_id: tenant.id,
    session_hash: session.id_hash,
    client_id: clientId,
    name_id: nameId,
    name_id_format: settings.nameIdentifierFormat,
    session_index: sessionIndex,
    created_at: isoAt(ctx.now()),
  });
  const xml = await loginResponse(
    {
      issuer: samlIssuer(tenant, settings),
      acs: params.acs,
      ...(params.in_response_to !== undefined && { inResponseTo: params.in_response_to }),
      audience: params.audience,
      nameId,
      sessionIndex,
      authnInstant: session.auth_time,
      now: ctx.now(),
      settings,
      attributes,
    },
    signing,
  );
  return Buffer.from(xml, 'utf8').toString('base64');
}

export const samlpResponse: ProtocolResponse = {
  name: SAMLP,
  skipsSteps: ['consent'],
  async respond(deps: StepDeps, reply: FastifyReply, interaction: Interaction): Promise<FastifyReply> {
    const { tenant, client } = interaction;
    const settings = samlpSettings(client.row.config);
    if (!settings) throw pageErrors.authorize('The application no longer has the SAML2 Web App addon.');
    const params = interaction.request.protocol!.params as unknown as SamlpRequestParams;
    const { user, session } = interaction.authenticated!;
    const response = await samlResponseFor(deps.ctx, tenant, client.row.client_id, settings, params, user, session);
    return formPost.send(reply, params.acs, { SAMLResponse: response, RelayState: params.relay_state });
  },
};
