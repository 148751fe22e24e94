/**
 * WS-Federation passive requestor profile (WS-Federation 1.2 §13;
 * authentication-api-wire-notes §14), for clients with the `wsfed` addon:
 *
 * - `GET /wsfed/{client_id}` (or `GET /wsfed`, the client named by
 *   `wtrealm=urn:{client_id}`), `wa=wsignin1.0` (the default): the realm
 *   (`wtrealm`, default `urn:{client_id}`) must be that or one of the
 *   client's `client_aliases`; `wreply` (default the first callback) must be
 *   one of its callbacks (else an error page: nothing is ever posted
 *   elsewhere); `whr=urn:{connection}` names the connection; `wfresh=0` asks
 *   for the password again. The request rides the login steps like a SAML
 *   one (protocol `wsfed`); the answer is a form posted to `wreply` with
 *   `wa`, `wresult` (./token.ts: a SAML 1.1 assertion signed with the
 *   tenant's key, shaped by the samlp addon's settings when the client has
 *   one) and `wctx`.
 * - `wa=wsignout1.0` / `wsignoutcleanup1.0`: the session ends; the browser
 *   goes to `wreply` when it is one of the client's Allowed Logout URLs, else
 *   sees the logged-out page.
 * - `GET /wsfed/FederationMetadata/2007-06/FederationMetadata.xml`: the
 *   security token service's metadata (issuer, signing certificate, passive
 *   endpoint), unsigned.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { samlpSettings, SAMLP_DEFAULTS, type SamlpSettings } from '../../domain/clients/samlp-addon.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { isoAt } from '../../platform/clock.js';
import { certificateBase64 } from '../../platform/xml/signatures.js';
import { callbackMatches, type AuthorizeRequest } from '../authorize/request.js';
import { formPost } from '../authorize/response-modes/form-post.js';
import { clearedSessionCookie } from '../cookies.js';
import { pageErrors } from '../errors.js';
import { startInteraction } from '../interaction/policy.js';
import type { Interaction, StepDeps, ProtocolResponse } from '../interaction/step.js';
import { logoutUrlAllowed } from '../logout/service.js';
import { sendPage } from '../pages/html.js';
import { loggedOutPage } from '../pages/logout.js';
import { pick, readQuery } from '../params.js';
import { samlIssuer, subjectOf } from '../samlp/response.js';
import { Builder, newSamlId } from '../samlp/xml-messages.js';
import { wsfedResult } from './token.js';

const WSFED = 'wsfed';
const PARAMETERS = ['wa', 'wtrealm', 'wctx', 'wreply', 'whr', 'wfresh'];

interface WsfedParams {
  reply: string;
  realm: string;
  wctx?: string;
}

/** The samlp addon's settings shape the token; its defaults without one. */
const tokenSettings = (client: IssuanceClient): SamlpSettings => samlpSettings(client.row.config) ?? { ...SAMLP_DEFAULTS };

async function wsfedClient(deps: StepDeps, request: FastifyRequest, clientId: string | undefined): Promise<IssuanceClient> {
  const client = clientId ? await deps.ctx.lookups.client(request.tenant.id, clientId) : undefined;
  if (!client) throw pageErrors.authorize('Unknown client.');
  const addons = client.row.config.addons as Record<string, unknown> | undefined;
  if (addons?.wsfed === null || typeof addons?.wsfed !== 'object') throw pageErrors.authorize('The application does not have the WS-Federation addon enabled.');
  return client;
}

function realmOf(client: IssuanceClient, wtrealm: string | undefined): string {
  const own = `urn:${client.row.client_id}`;
  if (wtrealm === undefined || wtrealm === own) return own;
  const aliases = client.row.config.client_aliases;
  if (Array.isArray(aliases) && aliases.includes(wtrealm)) return wtrealm;
  throw pageErrors.authorize('The wtrealm is neither urn:{client_id} nor one of the client_aliases of the application.');
}

function replyOf(client: IssuanceClient, wreply: string | undefined): string {
  const { callbacks } = client.browser;
  if (wreply === undefined) {
    const first = callbacks[0];
    if (first === undefined || first.includes('*')) throw pageErrors.authorize('No wreply was sent and the application has no usable callback URL.');
    return first;
  }
  if (!callbacks.some((c) => callbackMatches(c, wreply))) throw pageErrors.authorize('The wreply is not in the list of allowed callback URLs of the application.');
  return wreply;
}

async function signOut(deps: StepDeps, request: FastifyRequest, reply: FastifyReply, client: IssuanceClient, wreply: string | undefined): Promise<FastifyReply> {
  if (wreply !== undefined && !logoutUrlAllowed(client.browser.allowedLogoutUrls, wreply)) {
    throw pageErrors.logout('The wreply is not in the list of Allowed Logout URLs of the application.');
  }
  const session = await deps.sessions.current(request.tenant, request.headers.cookie);
  if (session) await deps.ctx.stores.sessions.revoke(request.tenant.id, session.id_hash, isoAt(deps.ctx.now()));
  reply.header('Set-Cookie', clearedSessionCookie());
  if (wreply === undefined) return sendPage(reply, 200, loggedOutPage());
  return reply.code(302).header('Location', wreply).header('Cache-Control', 'no-store').send();
}

export function wsfedEndpoints(deps: StepDeps): RouteOptions[] {
  const handler = async (request: FastifyRequest<{ Params: { client_id?: string } }>, reply: FastifyReply) => {
    const params = pick(readQuery(request), PARAMETERS, pageErrors.invalidParameter);
    const fromRealm = params.wtrealm?.startsWith('urn:') ? params.wtrealm.slice(4) : undefined;
    const client = await wsfedClient(deps, request, request.params.client_id ?? fromRealm);
    const wa = params.wa ?? 'wsignin1.0';
    if (wa === 'wsignout1.0' || wa === 'wsignoutcleanup1.0') return signOut(deps, request, reply, client, params.wreply);
    if (wa !== 'wsignin1.0') throw pageErrors.authorize(`Unsupported wa: ${wa}`);
    const wsfed: WsfedParams = { reply: replyOf(client, params.wreply), realm: realmOf(client, params.wtrealm), ...(params.wctx !== undefined && { wctx: params.wctx }) };
    const connection = params.whr?.startsWith('urn:') ? params.whr.slice(4) : undefined;
    const authorize: AuthorizeRequest = {
      client_id: client.row.client_id,
      response_type: [],
      redirect_target: wsfed.reply,
      response_mode: 'form_post',
      protocol: { name: WSFED, params: { ...wsfed } },
      ...(params.wfresh === '0' && { prompt: 'login' as const }),
      ...(connection && { connection }),
    };
    const authenticated = await deps.sessions.usable(request.tenant, client, authorize, request.headers.cookie);
    return startInteraction(deps, request, reply, client, authorize, authenticated);
  };
  return [
    { method: 'GET', url: '/wsfed', handler },
    { method: 'GET', url: '/wsfed/:client_id', handler },
    federationMetadataEndpoint(deps),
  ] as RouteOptions[];
}

export const wsfedResponse: ProtocolResponse = {
  name: WSFED,
  skipsSteps: ['consent'],
  async respond(deps: StepDeps, reply: FastifyReply, interaction: Interaction): Promise<FastifyReply> {
    const { tenant, client } = interaction;
    const params = interaction.request.protocol!.params as unknown as WsfedParams;
    const { user, session } = interaction.authenticated!;
    const settings = tokenSettings(client);
    const { attributes, nameId } = await subjectOf(deps.ctx, tenant, client.row.client_id, settings, user);
    const { signing } = await deps.ctx.keyring.keys(tenant.id);
    const wresult = wsfedResult({ issuer: samlIssuer(tenant, settings), realm: params.realm, nameId, attributes, authnInstant: session.auth_time, now: deps.ctx.now(), settings }, signing);
    return formPost.send(reply, params.reply, { wa: 'wsignin1.0', wresult, wctx: params.wctx });
  },
};

const MD_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const FED_NS = 'http://docs.oasis-open.org/wsfed/federation/200706';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const WSA_NS = 'http://www.w3.org/2005/08/addressing';

function federationMetadataEndpoint(deps: StepDeps): RouteOptions {
  return {
    method: 'GET',
    url: '/wsfed/FederationMetadata/2007-06/FederationMetadata.xml',
    handler: async (request, reply) => {
      const { tenant } = request;
      const { signing } = await deps.ctx.keyring.keys(tenant.id);
      const builder = new Builder('EntityDescriptor', MD_NS, 'EntityDescriptor');
      builder.root.setAttribute('ID', newSamlId());
      builder.root.setAttribute('entityID', `urn:${tenant.domain}`);
      const role = builder.element(builder.root, MD_NS, 'RoleDescriptor', { protocolSupportEnumeration: FED_NS });
      role.setAttributeNS(XSI_NS, 'xsi:type', 'fed:SecurityTokenServiceType');
      role.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns:fed', FED_NS);
      const keyDescriptor = builder.element(role, MD_NS, 'KeyDescriptor', { use: 'signing' });
      const keyInfo = builder.element(keyDescriptor, DSIG_NS, 'ds:KeyInfo');
      const x509 = builder.element(keyInfo, DSIG_NS, 'ds:X509Data');
      builder.element(x509, DSIG_NS, 'ds:X509Certificate', {}, certificateBase64(signing.certificatePem));
      for (const endpoint of ['fed:SecurityTokenServiceEndpoint', 'fed:PassiveRequestorEndpoint']) {
        const element = builder.element(role, FED_NS, endpoint);
        const reference = builder.element(element, WSA_NS, 'wsa:EndpointReference');
        builder.element(reference, WSA_NS, 'wsa:Address', {}, `https://${tenant.domain}/wsfed`);
      }
      return reply.header('Cache-Control', 'public, max-age=300').type('text/xml; charset=utf-8').send(builder.serialise());
    },
  };
}
