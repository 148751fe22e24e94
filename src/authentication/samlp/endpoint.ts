/**
 * `GET|POST /samlp/{client_id}`: the single sign-on service of the
 * identity provider (authentication-api-wire-notes §14), as a pipeline:
 *
 * 1. the client, which must have the `samlp` addon;
 * 2. the SAML request of the binding (HTTP-Redirect for GET, HTTP-POST for
 *    POST; ./messages.ts): decoded, parsed without DTDs, its signature
 *    verified when the addon has the SP's `signingCert`;
 * 3. the ACS URL: the request's `AssertionConsumerServiceURL`, which must be
 *    one of the client's callbacks (else an error page: nothing is ever
 *    posted to an unregistered address), or, without one, the first
 *    callback; only the HTTP-POST binding answers;
 * 4. `Destination`, when the request has one, must be this endpoint;
 * 5. the request becomes an authorization transaction carrying the SAML
 *    parameters (`protocol: samlp`), handed to the interaction steps: the
 *    login page when no SSO session may answer it (`ForceAuthn` is
 *    `prompt=login`), then ./response.ts posts the signed Response.
 *    `IsPassive` without a usable session answers `NoPassive` at once.
 *
 * Without `SAMLRequest` it is IdP-initiated SSO: the Response (no
 * InResponseTo) goes to the client's first callback, with `RelayState` if
 * given. `connection` names the connection to log in with.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { samlpSettings, type SamlpSettings } from '../../domain/clients/samlp-addon.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { callbackMatches, type AuthorizeRequest } from '../authorize/request.js';
import { formPost } from '../authorize/response-modes/form-post.js';
import { pageErrors } from '../errors.js';
import { startInteraction } from '../interaction/policy.js';
import type { StepDeps } from '../interaction/step.js';
import { pick, readQueryOrBody } from '../params.js';
import { HTTP_POST_BINDING } from '../../domain/clients/samlp-addon.js';
import { readAuthnRequest, SamlRefusal, type AuthnRequest, type InboundMessage } from './messages.js';
import { SAMLP, samlIssuer, type SamlpRequestParams } from './response.js';
import { STATUS, statusResponse } from './xml-messages.js';

const PARAMETERS = ['SAMLRequest', 'RelayState', 'SigAlg', 'Signature', 'connection'];

/** The client of the path, with its samlp settings; else the error page. */
export async function samlpClient(deps: StepDeps, tenant: Tenant, clientId: string): Promise<{ client: IssuanceClient; settings: SamlpSettings }> {
  const client = await deps.ctx.lookups.client(tenant.id, clientId);
  if (!client) throw pageErrors.authorize('Unknown client.');
  const settings = samlpSettings(client.row.config);
  if (!settings) throw pageErrors.authorize('The application does not have the SAML2 Web App addon enabled.');
  return { client, settings };
}

/** This endpoint's own URL, as a request's Destination must name it. */
export const ssoUrl = (tenant: Tenant, clientId: string) => `https://${tenant.domain}/samlp/${encodeURIComponent(clientId)}`;

/** The message of the binding: the query (HTTP-Redirect) or the form (HTTP-POST). */
export function inboundMessage(request: FastifyRequest, params: Readonly<Record<string, string>>, messageName: string): InboundMessage | undefined {
  const message = params[messageName];
  if (message === undefined) return undefined;
  const post = request.method === 'POST';
  const inbound: InboundMessage = { binding: post ? 'post' : 'redirect', message };
  if (params.RelayState !== undefined) inbound.relayState = params.RelayState;
  if (!post) {
    if (params.SigAlg !== undefined) inbound.sigAlg = params.SigAlg;
    if (params.Signature !== undefined) inbound.signature = params.Signature;
    const q = request.url.indexOf('?');
    inbound.rawQuery = q === -1 ? '' : request.url.slice(q + 1);
  }
  return inbound;
}

/** The first callback, when it is a concrete URL (a wildcard entry names no address). */
function firstCallback(client: IssuanceClient): string {
  const first = client.browser.callbacks[0];
  if (first === undefined || first.includes('*')) throw pageErrors.authorize('The application has no callback URL to send the SAML response to.');
  return first;
}

function assertionConsumerService(client: IssuanceClient, authn: AuthnRequest): string {
  if (authn.protocolBinding !== undefined && authn.protocolBinding !== HTTP_POST_BINDING) {
    throw pageErrors.authorize(`Unsupported ProtocolBinding: only ${HTTP_POST_BINDING} is answered.`);
  }
  const acs = authn.assertionConsumerServiceUrl;
  if (acs === undefined) return firstCallback(client);
  if (!client.browser.callbacks.some((c) => callbackMatches(c, acs))) {
    throw pageErrors.authorize('The AssertionConsumerServiceURL is not in the list of allowed callback URLs of the application.');
  }
  return acs;
}

/** The SAML request's parameters, or for IdP-initiated SSO the client's. */
function samlpParams(tenant: Tenant, client: IssuanceClient, settings: SamlpSettings, authn: AuthnRequest | undefined, relayState: string | undefined): SamlpRequestParams {
  if (authn === undefined) {
    const acs = firstCallback(client);
    return { acs, audience: settings.audience ?? acs, ...(relayState !== undefined && { relay_state: relayState }) };
  }
  if (authn.destination !== undefined && authn.destination.split('?')[0] !== ssoUrl(tenant, client.row.client_id)) {
    throw pageErrors.authorize('The Destination of the AuthnRequest is not this endpoint.');
  }
  const acs = assertionConsumerService(client, authn);
  const audience = settings.audience ?? authn.issuer;
  if (audience === undefined) throw pageErrors.authorize('The AuthnRequest has no Issuer and the application no audience.');
  return { acs, audience, in_response_to: authn.id, ...(relayState !== undefined && { relay_state: relayState }) };
}

/** `IsPassive` and nobody logged in: the `NoPassive` status (SAML Core §3.4.1), at once. */
async function noPassive(deps: StepDeps, reply: FastifyReply, tenant: Tenant, settings: SamlpSettings, params: SamlpRequestParams): Promise<FastifyReply> {
  const { signing } = await deps.ctx.keyring.keys(tenant.id);
  const xml = statusResponse(
    { issuer: samlIssuer(tenant, settings), acs: params.acs, inResponseTo: params.in_response_to!, now: deps.ctx.now(), code: STATUS.responder, subCode: STATUS.noPassive, settings },
    signing,
  );
  return formPost.send(reply, params.acs, { SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: params.relay_state });
}

export function samlpEndpoints(deps: StepDeps): RouteOptions[] {
  const handler = async (request: FastifyRequest<{ Params: { client_id: string } }>, reply: FastifyReply) => {
    const { tenant } = request;
    const params = pick(readQueryOrBody(request), PARAMETERS, pageErrors.invalidParameter);
    const { client, settings } = await samlpClient(deps, tenant, request.params.client_id);
    const inbound = inboundMessage(request, params, 'SAMLRequest');
    let authn: AuthnRequest | undefined;
    try {
      authn = inbound && readAuthnRequest(inbound, settings.signingCert);
    } catch (error) {
      if (error instanceof SamlRefusal) throw pageErrors.authorize(error.message);
      throw error;
    }
    const samlp = samlpParams(tenant, client, settings, authn, params.RelayState);
    const authorize: AuthorizeRequest = {
      client_id: client.row.client_id,
      response_type: [],
      redirect_target: samlp.acs,
      response_mode: 'form_post',
      protocol: { name: SAMLP, params: { ...samlp } },
      ...(authn?.forceAuthn && { prompt: 'login' as const }),
      ...(params.connection && { connection: params.connection }),
    };
    const authenticated = await deps.sessions.usable(tenant, client, authorize, request.headers.cookie);
    if (authn?.isPassive && !authenticated) return noPassive(deps, reply, tenant, settings, samlp);
    return startInteraction(deps, request, reply, client, authorize, authenticated);
  };
  return [
    { method: 'GET', url: '/samlp/:client_id', handler },
    { method: 'POST', url: '/samlp/:client_id', handler },
  ] as RouteOptions[];
}
