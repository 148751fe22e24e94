/**
 * POST /mfa/associate (wire notes §13): enrols an authenticator for the
 * caller (./caller.ts).
 *
 * - `authenticator_types: ["otp"]`: a new TOTP secret and its `otpauth://`
 *   URI (`barcode_uri`); confirmed by its first code (mfa-otp grant);
 * - `authenticator_types: ["oob"]`, `oob_channels: ["auth0"]` (push): a
 *   `barcode_uri` whose QR code leads the device to its enrolment
 *   (src/domain/mfa/push.ts), and the `oob_code` polled with the mfa-oob
 *   grant until the device has enrolled;
 * - `authenticator_types: ["oob"]`, `oob_channels: ["email"]` (`email`, else
 *   the user's) or `["sms"]` (`phone_number`, E.164; limited per IP and per
 *   number): the binding code is sent at once, and the answer's `oob_code`
 *   with it confirms the enrolment (mfa-oob grant).
 *
 * The first enrolment also returns `recovery_codes` when that factor is on.
 * With the mfa_token itself a user may enrol only while they have no
 * confirmed second factor: 403 `access_denied` "User is already enrolled.".
 * Answers carry `Cache-Control: no-store` (a secret, a code).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { firstRecoveryCode, mfaSettings, secondFactors, startOobEnrolment, startTotpEnrolment, usableAuthenticators } from '../../domain/mfa/service.js';
import { OAuthError, oauthErrors } from '../../platform/http/errors.js';
import { takeSend, type AbuseLimitContext } from '../abuse-limits.js';
import { pick, readBody } from '../params.js';
import { startPushEnrolment, type PushContext } from '../../domain/mfa/push.js';
import { mfaCaller, requireScope, type MfaCaller, type MfaCallerContext } from './caller.js';
import { bindingCodeSender, type CodeDeliveryContext } from './delivery.js';
import { factorEnabled, SECOND_FACTORS } from '../../domain/mfa/factors/registry.js';

/** A JSON list of strings (a lone string is taken as a list of one), at most a few entries. */
function stringList(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | null)?.[name];
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length > 4 || !list.every((v) => typeof v === 'string')) {
    throw oauthErrors.invalidRequest(`${name} must be an array of strings`);
  }
  return list as string[];
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const E164 = /^\+[1-9][0-9]{6,14}$/;

/** What POST /mfa/associate touches. */
export interface MfaAssociateContext extends MfaCallerContext, PushContext, AbuseLimitContext, CodeDeliveryContext {
  readonly stores: MfaCallerContext['stores'] & PushContext['stores'] & CodeDeliveryContext['stores'];
}

async function refuseIfEnrolled(ctx: MfaAssociateContext, request: FastifyRequest, caller: MfaCaller): Promise<void> {
  if (!caller.viaMfaToken) return;
  if (secondFactors(await usableAuthenticators(ctx, request.tenant.id, caller.user.user_id)).length > 0) {
    throw oauthErrors.accessDenied('User is already enrolled.');
  }
}

function factorDisabled(name: string): OAuthError {
  return oauthErrors.accessDenied(`The ${name} factor is not enabled.`);
}

export function associateEndpoint(ctx: MfaAssociateContext): RouteOptions {
  return {
    method: 'POST',
    url: '/mfa/associate',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const raw = readBody(request);
      const params = pick(raw, ['client_id', 'email', 'phone_number']);
      const caller = await mfaCaller(ctx, tenant, request);
      requireScope(caller, 'enroll');
      if (params.client_id !== undefined && params.client_id !== caller.clientId) throw oauthErrors.invalidRequest('client_id does not match the token');
      const types = stringList(request.body, 'authenticator_types');
      const channels = stringList(request.body, 'oob_channels');
      if (types.length !== 1) throw oauthErrors.invalidRequest('authenticator_types must name one authenticator type: otp or oob');
      await refuseIfEnrolled(ctx, request, caller);
      const settings = await mfaSettings(ctx, tenant.id);
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');

      if (types[0] !== 'otp' && types[0] !== 'oob') throw oauthErrors.invalidRequest(`Unsupported authenticator type: ${types[0]}`);
      const channel = channels.length === 1 ? channels[0] : undefined;
      // The factor the request names, by its /mfa API challenge type and channel (each factor module's `api`).
      const factor = SECOND_FACTORS.find((f) => f.api?.challengeType === types[0] && (types[0] === 'otp' || f.api?.oobChannel === channel));
      if (!factor) throw oauthErrors.invalidRequest('oob_channels must be ["auth0"], ["email"] or ["sms"]: the other channels are not supported by this server');
      if (!factorEnabled(settings.factors, factor)) throw factorDisabled(factor.name);
      if (factor.challenge === 'code') {
        const { secret, barcodeUri } = await startTotpEnrolment(ctx, tenant, caller.user);
        const recovery = await firstRecoveryCode(ctx, tenant.id, caller.user.user_id);
        return { authenticator_type: 'otp', secret, barcode_uri: barcodeUri, ...(recovery !== undefined && { recovery_codes: [recovery] }) };
      }
      if (factor.challenge === 'push') {
        // Push: the QR code of barcode_uri leads the device to the enrolment (src/domain/mfa/push.ts).
        const { oobCode, barcodeUri } = await startPushEnrolment(ctx, tenant, caller.user, caller.clientId);
        const recovery = await firstRecoveryCode(ctx, tenant.id, caller.user.user_id);
        return { authenticator_type: 'oob', barcode_uri: barcodeUri, ...(recovery !== undefined && { recovery_codes: [recovery] }), oob_channel: 'auth0', oob_code: oobCode };
      }
      let address: string;
      if (channel === 'email') {
        address = params.email ?? caller.user.email ?? '';
        if (!EMAIL.test(address)) throw oauthErrors.invalidRequest('A valid email is required for the email channel');
        await takeSend(ctx, tenant, 'mfa_email_enrollment', request.ip, address);
      } else {
        address = params.phone_number ?? '';
        if (!E164.test(address)) throw oauthErrors.invalidRequest('phone_number must be an E.164 number, such as +14155550100');
        // Each text message costs money: limited per client IP and per number (../abuse-limits.ts).
        await takeSend(ctx, tenant, 'mfa_sms_enrollment', request.ip, address);
      }
      const type = factor.type as 'email' | 'phone';
      const oobCode = await startOobEnrolment(ctx, tenant, caller.user.user_id, caller.clientId, type, address, (authenticator) =>
        bindingCodeSender(ctx, tenant, authenticator, 'enrollment'),
      );
      const recovery = await firstRecoveryCode(ctx, tenant.id, caller.user.user_id);
      return {
        authenticator_type: 'oob',
        binding_method: 'prompt',
        ...(recovery !== undefined && { recovery_codes: [recovery] }),
        oob_channel: channel,
        oob_code: oobCode,
      };
    },
  };
}
