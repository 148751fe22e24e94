/**
 * In the default setup (the default tenant is `localhost:PORT`), the loopback
 * addresses `127.0.0.1:PORT` and `[::1]:PORT` are further names of that
 * tenant: the self-signed certificate covers them, and a browser or curl
 * pointed at them should not meet "No tenant". Only the default tenant gets
 * them, and only when its host is `localhost` on the listening port; a
 * request through one is answered with the issuer of the host used
 * (src/domain/tenants/service.ts `aliases`).
 */
import type { Config } from '../platform/config.js';

export function loopbackAliases(config: Pick<Config, 'defaultDomain' | 'port'>): Map<string, string> {
  const aliases = new Map<string, string>();
  if (config.defaultDomain !== `localhost:${config.port}`) return aliases;
  for (const host of ['127.0.0.1', '[::1]']) aliases.set(`${host}:${config.port}`, config.defaultDomain);
  return aliases;
}
