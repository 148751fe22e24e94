/**
 * POST /bc-authorize (OpenID CIBA Core 1.0 §7, poll mode;
 * authentication-api-wire-notes §12): the stages of the authorization-request
 * table marked BA (../authorize/stages.ts: read the body, authenticate the
 * client with any registered method (CIBA clients are confidential), check
 * that it may use the CIBA grant, the request's own parameters
 * (./request.ts), the audience), then keep the request and ask the user
 * through the client's `async_approval_notification_channels`:
 * `guardian-push` pushes a transaction to the user's enrolled device (the
 * device's signed answer decides the request, src/domain/mfa/push.ts),
 * `email` mails a single-use link to the approval page (../ciba/approve.ts). Answer `{auth_req_id, expires_in, interval}`.
 */
import { factorOf } from '../../domain/mfa/factors/registry.js';
import { sendTenantMail, userVariables, type TenantMailContext } from '../../domain/email/templates.js';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Stores } from '../../domain/stores.js';
import type { BackchannelAuthRequestRow, UserRow } from '../../domain/rows.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { authorizationPipeline, BA, type StageContext } from '../authorize/stages.js';
import { responseSupport } from '../authorize/request.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import type { AuthenticationRegistries } from '../registries.js';
import type { Authenticator } from '../../domain/mfa/model.js';
import { startPushChallenge } from '../../domain/mfa/push.js';
import { secondFactors, usableAuthenticators } from '../../domain/mfa/service.js';
import { pushSender, type PushDeliveryContext } from '../mfa/push-delivery.js';

export const CIBA_POLL_INTERVAL = 5;

type Channel = { name: 'guardian-push'; device: Authenticator } | { name: 'email' };

/**
 * The channel to ask the user on, of the client's
 * `async_approval_notification_channels` (default `guardian-push`):
 * `guardian-push` when the user has an enrolled push device and the factor
 * is on, else `email` when listed and the user has an address.
 */
/** What /bc-authorize touches: the stages' context, the user's push authenticator and the push or mail that asks them, the requests it keeps. */
export interface BackchannelAuthorizeContext extends StageContext, PushDeliveryContext, TenantMailContext {
  readonly stores: StageContext['stores'] & PushDeliveryContext['stores'] & TenantMailContext['stores'] & Pick<Stores, 'backchannelAuthRequests'>;
}

async function checkChannels(ctx: BackchannelAuthorizeContext, tenant: Tenant, client: AuthenticatedClient, user: UserRow): Promise<Channel> {
  const config = client.client.row.config as { async_approval_notification_channels?: unknown };
  const channels = Array.isArray(config.async_approval_notification_channels) ? config.async_approval_notification_channels : ['guardian-push'];
  if (channels.includes('guardian-push')) {
    const device = secondFactors(await usableAuthenticators(ctx, tenant.id, user.user_id)).find((a) => factorOf(a)?.challenge === 'push');
    if (device) return { name: 'guardian-push', device };
  }
  if (channels.includes('email') && user.email) return { name: 'email' };
  throw oauthErrors.invalidRequest('The user cannot be asked on any of the client\'s async_approval_notification_channels (guardian-push needs an enrolled push device, email an address)');
}

/** The approval mail (the tenant's `async_approval` template when it has one). */
function mailApproval(ctx: BackchannelAuthorizeContext, tenant: Tenant, user: UserRow, client: AuthenticatedClient, ticket: string, bindingMessage: string, expiresIn: number): Promise<void> {
  const link = `${tenant.issuer}ciba/approve?ticket=${encodeURIComponent(ticket)}`;
  const name = client.client.row.name;
  return sendTenantMail(
    ctx,
    tenant,
    'async_approval',
    user.email!,
    {
      subject: `${name} asks you to approve a sign-in`,
      text:
        `${name} asks you to approve a sign-in with this message:\n\n    ${bindingMessage}\n\n` +
        `If you recognise it, open this link to approve or deny it:\n\n${link}\n\nThe link works once and expires in ${expiresIn} seconds.\n`,
    },
    { url: link, binding_message: bindingMessage, application: { name, clientID: client.client.row.client_id }, user: userVariables(user) },
  );
}

/** Pushes the request to the user's device as a transaction; returns the transaction id. */
async function pushApproval(ctx: BackchannelAuthorizeContext, tenant: Tenant, client: AuthenticatedClient, device: Authenticator, bindingMessage: string): Promise<string> {
  let transaction = '';
  const notify = pushSender(ctx, tenant, device, { clientName: client.client.row.name, text: `${client.client.row.name}: ${bindingMessage}` });
  await startPushChallenge(ctx, tenant, device, client.client.row.client_id, async (transactionId, expiresAt) => {
    transaction = transactionId;
    await notify(transactionId, expiresAt);
  });
  return transaction;
}

export function backchannelAuthorizeEndpoint(ctx: BackchannelAuthorizeContext, registries: AuthenticationRegistries): RouteOptions {
  const run = authorizationPipeline(BA, { ctx, clientAuthMethods: registries.clientAuthMethods, responses: responseSupport(registries) });
  return {
    method: 'POST',
    url: '/bc-authorize',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const state = await run(request, reply);
      const client = state.authenticated!;
      const { scope, bindingMessage, expiresIn, user } = state.backchannel!;
      const channel = await checkChannels(ctx, tenant, client, user);

      const authReqId = newSecret();
      // The push transaction's id is the request's ticket: the device's answer decides it (src/domain/mfa/push.ts).
      const ticket = channel.name === 'guardian-push' ? await pushApproval(ctx, tenant, client, channel.device, bindingMessage) : newSecret();
      const now = ctx.now();
      const row: BackchannelAuthRequestRow = {
        tenant_id: tenant.id,
        id: newPrefixedId('bcr'),
        auth_req_id_hash: secretHash(authReqId),
        ticket_hash: secretHash(ticket),
        client_id: client.client.row.client_id,
        user_id: user.user_id,
        scope,
        audience: state.audience ?? null,
        binding_message: bindingMessage,
        status: 'pending',
        interval: CIBA_POLL_INTERVAL,
        created_at: isoAt(now),
        expires_at: isoAt(now + expiresIn * 1000),
        decided_at: null,
        last_polled_at: null,
        used_at: null,
      };
      await ctx.stores.backchannelAuthRequests.insert(row);
      if (channel.name === 'email') await mailApproval(ctx, tenant, user, client, ticket, bindingMessage, expiresIn);
      return reply.header('Cache-Control', 'no-store').send({ auth_req_id: authReqId, expires_in: expiresIn, interval: CIBA_POLL_INTERVAL });
    },
  };
}
