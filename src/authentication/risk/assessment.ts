/**
 * Risk assessment of a login through the hosted login (the service's
 * `riskAssessment`): the new-device assessor compares the device
 * (`__Host-gh_device`, set here when the browser has none) and its user
 * agent with the devices the user logged in from
 * (../../domain/risk-assessments/new-device.ts), then records this one as
 * known for the tenant's `remember_for` days (at most KNOWN_DEVICES_PER_USER
 * per user, the least recently seen forgotten first). With the tenant's
 * supplemental signals on, a request through a trusted proxy adds its
 * Akamai headers. The assessment is kept with the session the login starts
 * (post-login Actions' `event.authentication.riskAssessment`) and, when risk
 * assessment is enabled, written on the login's tenant log entry.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RiskAssessment } from '../../domain/risk-assessments/rows.js';
import type { RiskAssessmentStore } from '../../domain/risk-assessments/store.js';
import { assessNewDevice, KNOWN_DEVICES_PER_USER, riskAssessmentOf } from '../../domain/risk-assessments/new-device.js';
import { akamaiEnabled, newDeviceRememberFor, riskAssessmentEnabled } from '../../domain/risk-assessments/settings.js';
import { akamaiSignals } from '../../domain/risk-assessments/supplemental.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { UserRow } from '../../domain/users/rows.js';
import { isoAt } from '../../platform/clock.js';
import { cameThroughTrustedProxy } from '../../platform/http/trusted-proxy.js';
import { appendCookie, deviceIdentifier } from '../cookies.js';

const DAY_MS = 86_400_000;

/** What assessing a login touches. */
export interface LoginRiskContext {
  readonly now: () => number;
  readonly stores: { readonly riskAssessments: Pick<RiskAssessmentStore, 'knownDevices' | 'rememberDevice'> };
}

/** The login's assessment; records the device as known for the user and sets the device cookie when the browser had none. */
export async function assessLogin(ctx: LoginRiskContext, request: FastifyRequest, reply: FastifyReply, tenant: Tenant, user: UserRow): Promise<RiskAssessment> {
  const device = deviceIdentifier(request.headers.cookie);
  if (device.setCookie) appendCookie(reply, device.setCookie);
  const now = ctx.now();
  const agent = request.headers['user-agent'];
  const sighting = { deviceHash: secretHash(device.value), userAgentHash: agent ? secretHash(agent) : null, loginsCount: user.logins_count };
  const known = await ctx.stores.riskAssessments.knownDevices(tenant.id, user.user_id, isoAt(now));
  const newDevice = assessNewDevice(known, sighting);
  const previous = known.find((row) => row.device_hash === sighting.deviceHash);
  await ctx.stores.riskAssessments.rememberDevice(
    {
      tenant_id: tenant.id,
      user_id: user.user_id,
      device_hash: sighting.deviceHash,
      user_agent_hash: sighting.userAgentHash,
      first_seen_at: previous?.first_seen_at ?? isoAt(now),
      last_seen_at: isoAt(now),
      expires_at: isoAt(now + newDeviceRememberFor(tenant.settings) * DAY_MS),
    },
    KNOWN_DEVICES_PER_USER,
  );
  const supplemental = akamaiEnabled(tenant.settings) && cameThroughTrustedProxy(request) ? akamaiSignals(request.headers) : undefined;
  return riskAssessmentOf(newDevice, supplemental);
}

/**
 * What the login's tenant log entry carries of the assessment, when risk
 * assessment is enabled (else nothing): the confidences and the new-device
 * assessor's result, flattened to fit the log's `details` (four levels; a
 * member named `code` is dropped there as a possible secret, so the
 * assessor's code is `reason`). The supplemental signals are not logged.
 */
export function loggedAssessment(tenant: Tenant, assessment: RiskAssessment | undefined): { riskAssessment: Record<string, unknown> } | undefined {
  if (!assessment || !riskAssessmentEnabled(tenant.settings)) return undefined;
  const { NewDevice } = assessment.assessments;
  return {
    riskAssessment: {
      confidence: assessment.confidence,
      version: assessment.version,
      assessments: { NewDevice: { confidence: NewDevice.confidence, reason: NewDevice.code, device: NewDevice.details.device, useragent: NewDevice.details.useragent } },
    },
  };
}
