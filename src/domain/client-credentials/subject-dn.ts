/**
 * Subject distinguished names, compared the way `tls_client_auth` needs:
 * tools print the same DN in different orders and separators (OpenSSL's
 * `C=US, O=Acme, CN=client`, RFC 4514's `CN=client,O=Acme,C=US`, Node's
 * `X509Certificate.subject` one attribute per line, OpenSSL's legacy
 * `/C=US/O=Acme/CN=client`). The canonical form is every attribute as
 * `TYPE=value` (type upper-cased, value trimmed), sorted, joined by ", ".
 * Two DNs match when their canonical forms are equal.
 */

const SHORT_NAMES: Record<string, string> = {
  COMMONNAME: 'CN',
  COUNTRYNAME: 'C',
  LOCALITYNAME: 'L',
  STATEORPROVINCENAME: 'ST',
  ORGANIZATIONNAME: 'O',
  ORGANIZATIONALUNITNAME: 'OU',
  EMAILADDRESS: 'EMAILADDRESS',
  '2.5.4.3': 'CN',
  '2.5.4.6': 'C',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.10': 'O',
  '2.5.4.11': 'OU',
};

/** Splits on `separator` where it is not escaped with a backslash. */
function splitUnescaped(text: string, separator: RegExp): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      i++;
    } else if (separator.test(ch)) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/** The canonical form of a DN; empty when it holds no `type=value` attribute. */
export function canonicalDn(dn: string): string {
  const text = dn.trim();
  const separator = text.includes('\n') ? /\n/ : text.startsWith('/') ? /\// : /[,;+]/;
  const attributes: string[] = [];
  for (const part of splitUnescaped(text, separator)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const rawType = part.slice(0, eq).trim().toUpperCase();
    const type = (Object.hasOwn(SHORT_NAMES, rawType) ? SHORT_NAMES[rawType] : undefined) ?? rawType;
    const value = part.slice(eq + 1).trim();
    attributes.push(`${type}=${value}`);
  }
  return attributes.sort().join(', ');
}
