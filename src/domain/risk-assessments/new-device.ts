/**
 * The new-device assessor: how a login compares with the devices its user
 * logged in from (the service's `riskAssessment.assessments.NewDevice`).
 * A device is the hosted login's device cookie; its user agent is the
 * second, weaker, half of the match:
 *
 * | the user's devices | this device | its user agent | code | confidence |
 * |---|---|---|---|---|
 * | none, first login ever | | | `initial_login` | neutral |
 * | none (all expired or cleared) | | | `no_device_history` | neutral |
 * | some | known | same | `match` | high |
 * | some | known | other | `partial_match` | medium |
 * | some | unknown | seen before | `partial_match` | medium |
 * | some | unknown | never seen | `no_match` | low |
 *
 * The overall confidence is the assessor's (it is the only one Gatehouse runs).
 */
import type { KnownDeviceRow, NewDeviceAssessment, RiskAssessment } from './rows.js';

/** The most devices kept per user: the least recently seen beyond it are forgotten. */
export const KNOWN_DEVICES_PER_USER = 20;

export interface DeviceSighting {
  deviceHash: string;
  userAgentHash: string | null;
  /** The user's successful logins before this one. */
  loginsCount: number;
}

export function assessNewDevice(known: readonly KnownDeviceRow[], sighting: DeviceSighting): NewDeviceAssessment {
  if (known.length === 0) {
    const code = sighting.loginsCount === 0 ? 'initial_login' : 'no_device_history';
    return { confidence: 'neutral', code, details: { device: 'unknown', useragent: 'unknown' } };
  }
  const device = known.find((row) => row.device_hash === sighting.deviceHash);
  const agentKnown = sighting.userAgentHash !== null && known.some((row) => row.user_agent_hash === sighting.userAgentHash);
  const details = { device: device ? 'known' : 'unknown', useragent: agentKnown ? 'known' : 'unknown' } as const;
  if (device && device.user_agent_hash === sighting.userAgentHash) return { confidence: 'high', code: 'match', details };
  if (device || agentKnown) return { confidence: 'medium', code: 'partial_match', details };
  return { confidence: 'low', code: 'no_match', details };
}

export function riskAssessmentOf(newDevice: NewDeviceAssessment, supplemental?: RiskAssessment['supplemental']): RiskAssessment {
  return { confidence: newDevice.confidence, version: '1', assessments: { NewDevice: newDevice }, ...(supplemental && { supplemental }) };
}
