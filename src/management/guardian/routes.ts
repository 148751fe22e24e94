import type { ManagementRoute } from '../route.js';
import { createAuthenticationMethod } from '../users/authentication-methods/create.js';
import { deleteAuthenticationMethods } from '../users/authentication-methods/delete-all.js';
import { deleteAuthenticationMethod } from '../users/authentication-methods/delete.js';
import { getAuthenticationMethod } from '../users/authentication-methods/get.js';
import { listAuthenticationMethods } from '../users/authentication-methods/list.js';
import { setAuthenticationMethods } from '../users/authentication-methods/set.js';
import { updateAuthenticationMethod } from '../users/authentication-methods/update.js';
import { deleteAuthenticators } from '../users/authenticators/delete-all.js';
import { deleteMultifactorProvider } from '../users/authenticators/delete-provider.js';
import { listUserEnrollments } from '../users/enrollments/list.js';
import { regenerateRecoveryCode } from '../users/recovery-code-regeneration/create.js';
import { createEnrollmentTicket } from './enrollments/create-ticket.js';
import { deleteEnrollment } from './enrollments/delete.js';
import { getEnrollment } from './enrollments/get.js';
import { listFactors } from './factors/list.js';
import { setFactor } from './factors/update.js';
import { GuardianMfaService, type GuardianMfaServiceContext } from './mfa-service.js';
import { getPolicies } from './policies/get.js';
import { setPolicies } from './policies/set.js';
import { getApnsProvider, setApnsProvider, updateApnsProvider } from './push-notification/apns.js';
import { setFcmProvider, setFcmV1Provider, updateFcmProvider, updateFcmV1Provider } from './push-notification/fcm.js';
import { getSelectedProvider, setSelectedProvider } from './push-notification/selected-provider.js';
import { getSnsProvider, setSnsProvider, updateSnsProvider } from './push-notification/sns.js';
import { GuardianPushService, type GuardianServiceContext } from './service.js';
import { getPhoneTemplates, getSmsTemplates, setPhoneTemplates, setSmsTemplates } from './sms/templates.js';
import { getPhoneTwilioProvider, getTwilioProvider, setPhoneTwilioProvider, setTwilioProvider } from './sms/twilio.js';
import { getPhoneSelectedProvider, getSmsSelectedProvider, setPhoneSelectedProvider, setSmsSelectedProvider } from './phone/selected-provider.js';
import { getPhoneMessageTypes, setPhoneMessageTypes } from './phone/message-types.js';
import type { GuardianPushStore } from '../../domain/guardian/store.js';
import { getDuoSettings } from './duo/get-settings.js';
import { GuardianDuoService, type GuardianDuoServiceContext } from './duo/service.js';
import { setDuoSettings } from './duo/set-settings.js';
import { updateDuoSettings } from './duo/update-settings.js';

/**
 * /api/v2/guardian/…: the factors, the MFA policy, enrolments and the
 * push-notification providers; and users' MFA enrolments
 * (/users/{id}/enrollments, /authentication-methods, /recovery-code-regeneration),
 * which belong to this area's service.
 */
export function guardianRoutes(ctx: GuardianServiceContext & GuardianMfaServiceContext & GuardianDuoServiceContext & { readonly stores: { readonly guardian: GuardianPushStore } }): ManagementRoute[] {
  const push = new GuardianPushService(ctx, ctx.stores.guardian);
  const mfa = new GuardianMfaService(ctx);
  const duo = new GuardianDuoService(ctx);
  return [
    ...[
      getSelectedProvider,
      setSelectedProvider,
      getApnsProvider,
      setApnsProvider,
      updateApnsProvider,
      getSnsProvider,
      setSnsProvider,
      updateSnsProvider,
      setFcmProvider,
      updateFcmProvider,
      setFcmV1Provider,
      updateFcmV1Provider,
    ].map((route) => route(ctx, push)),
    ...[
      listFactors,
      setFactor,
      getPolicies,
      setPolicies,
      getEnrollment,
      deleteEnrollment,
      createEnrollmentTicket,
      listUserEnrollments,
      listAuthenticationMethods,
      getAuthenticationMethod,
      createAuthenticationMethod,
      setAuthenticationMethods,
      updateAuthenticationMethod,
      deleteAuthenticationMethods,
      deleteAuthenticationMethod,
      deleteAuthenticators,
      deleteMultifactorProvider,
      regenerateRecoveryCode,
      getTwilioProvider,
      setTwilioProvider,
      getSmsTemplates,
      setSmsTemplates,
      getPhoneTwilioProvider,
      setPhoneTwilioProvider,
      getPhoneTemplates,
      setPhoneTemplates,
      getSmsSelectedProvider,
      setSmsSelectedProvider,
      getPhoneSelectedProvider,
      setPhoneSelectedProvider,
      getPhoneMessageTypes,
      setPhoneMessageTypes,
    ].map((route) => route(ctx, mfa)),
    ...[getDuoSettings, setDuoSettings, updateDuoSettings].map((route) => route(ctx, duo)),
  ];
}
