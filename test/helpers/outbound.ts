/**
 * Stand-ins for tenants' outbound destinations (relying parties, log stream
 * endpoints, SMTP servers) listen on the loopback interface, which Gatehouse
 * reaches only when the operator allows it (src/platform/http/outbound-guard.ts).
 */
import { parseOutboundAllow, type OutboundPolicy } from '../../src/platform/http/outbound-guard.js';

export const LOOPBACK_RANGES = '127.0.0.0/8,::1/128';

export const LOOPBACK_ALLOWED: OutboundPolicy = { allow: parseOutboundAllow(LOOPBACK_RANGES) };
