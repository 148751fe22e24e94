/**
 * The body of GET /admin/config.json (./config.ts), as the console's script
 * reads it (console/src/auth.ts). Its own module without imports, so that the
 * console, type-checked under its own DOM tsconfig, can share it.
 */
export interface ConsoleConfig {
  domain: string;
  client_id: string;
  audience: string;
  scope: string;
  redirect_uri: string;
}
