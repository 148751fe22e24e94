/**
 * Origin rules for a client's `allowed_origins`, `web_origins` and (for CORS,
 * by default) `callbacks` (spec, Client table): an entry allows one origin,
 * `scheme://host[:port]` (RFC 6454 §4). Its path, query string and hash are
 * ignored; `*` as the first label of the host (`https://*.example.com`)
 * stands for exactly one DNS label, so `https://evil.com/.example.com` or
 * `https://a.b.example.com` never match.
 */

/** A DNS label: no dots, so a wildcard cannot span labels (nor smuggle in userinfo, a port or a path). */
export const DNS_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
/** Takes the place of `*` while the URL parser normalises an entry (case, default port). */
const WILDCARD_STAND_IN = 'wildcard--label';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The serialised origin of a URL (RFC 6454 §6.2), or undefined for opaque origins and unparsable text. */
export function originOf(url: string): string | undefined {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether one entry (an origin or URL, maybe with a subdomain wildcard) allows
 * `origin`. Only a concrete origin matches: one holding a `*` (an entry's
 * pattern sent back as if it were an origin) matches nothing.
 */
export function originMatches(entry: string, origin: string): boolean {
  if (origin.includes('*')) return false;
  const cut = entry.search(/[?#]/);
  const bare = cut === -1 ? entry : entry.slice(0, cut);
  const wildcard = /^[a-z][a-z0-9+.-]*:\/\/\*\./i.test(bare);
  const normalised = originOf(wildcard ? bare.replace('://*.', `://${WILDCARD_STAND_IN}.`) : bare);
  if (normalised === undefined) return false;
  if (!wildcard) return normalised === origin;
  const [before, after] = normalised.split(WILDCARD_STAND_IN) as [string, string];
  return new RegExp(`^${escapeRegExp(before)}${DNS_LABEL}${escapeRegExp(after)}$`).test(origin);
}

export function originAllowed(entries: readonly string[], origin: string): boolean {
  return entries.some((entry) => originMatches(entry, origin));
}
