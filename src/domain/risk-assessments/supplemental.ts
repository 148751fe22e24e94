/**
 * Akamai supplemental signals: Akamai Bot Manager and Account Protector, in
 * front of Gatehouse as a reverse proxy, send their results in the
 * `Akamai-Bot` and `Akamai-User-Risk` request headers, each a list of
 * `name=value` pairs separated by `;`. When the tenant's `akamai_enabled`
 * is on and the request came through a trusted proxy (its
 * `X-Forwarded-For` was believed, GATEHOUSE_TRUST_PROXY), they become
 * `riskAssessment.supplemental.akamai.akamaiBot` and `.akamaiUserRisk`
 * (the service's names); otherwise they are ignored. Numbers become
 * numbers, `botCategory` a list; the pairs are bounded (count, name,
 * length) so a header cannot grow the event.
 */
export const AKAMAI_BOT_HEADER = 'akamai-bot';
export const AKAMAI_USER_RISK_HEADER = 'akamai-user-risk';

const MAX_PAIRS = 32;
const MAX_VALUE_LENGTH = 256;
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const NUMBER = /^-?\d{1,15}(\.\d{1,6})?$/;
const LISTS = new Set(['botCategory']);

export type AkamaiSignal = Record<string, string | number | string[]>;

/** A header's pairs; undefined when it has none that are well formed. */
export function parseAkamaiHeader(value: string | string[] | undefined): AkamaiSignal | undefined {
  if (typeof value !== 'string' || value.length > 8192) return undefined;
  const out: AkamaiSignal = Object.create(null) as AkamaiSignal;
  let count = 0;
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim().slice(0, MAX_VALUE_LENGTH);
    if (!NAME.test(name) || name in out) continue;
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // Kept as sent.
    }
    out[name] = LISTS.has(name) ? decoded.split(',').map((item) => item.trim()).filter(Boolean) : NUMBER.test(decoded) ? Number(decoded) : decoded;
    if (++count >= MAX_PAIRS) break;
  }
  return count > 0 ? { ...out } : undefined;
}

/** The supplemental signals of a request's headers, or undefined when it carries none. */
export function akamaiSignals(headers: Record<string, string | string[] | undefined>): { akamai: { akamaiBot?: AkamaiSignal; akamaiUserRisk?: AkamaiSignal } } | undefined {
  const akamaiBot = parseAkamaiHeader(headers[AKAMAI_BOT_HEADER]);
  const akamaiUserRisk = parseAkamaiHeader(headers[AKAMAI_USER_RISK_HEADER]);
  if (!akamaiBot && !akamaiUserRisk) return undefined;
  return { akamai: { ...(akamaiBot && { akamaiBot }), ...(akamaiUserRisk && { akamaiUserRisk }) } };
}
