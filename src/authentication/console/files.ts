/**
 * The admin console's files (built by `npm run build` into `dist/console/`,
 * or GATEHOUSE_CONSOLE_DIR): GET /admin → /admin/, GET /admin/ the page,
 * GET /admin/app.js and /admin/app.css. Only these three names are served,
 * each a fixed file of the directory: no part of the request's path ever
 * reaches the file system. The console runs its own script (and nothing
 * inline), talks only to this origin, and is never framed (CONSOLE_CSP).
 * Not built: 503 with what to run.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, RouteOptions } from 'fastify';
import { CONSOLE_PATH } from '../../domain/console/client.js';
import type { Config } from '../../platform/config.js';

/** The console's policy: its own script and style only, the Management API and the Authentication API of this origin, framed by nothing. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The files of a built console: name → content type. */
const FILES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
} as const;
type ConsoleFile = keyof typeof FILES;

export const NOT_BUILT = 'The admin console is not built. Run `npm run build` in the Gatehouse installation, then reload this page.\n';

/** Headers every console response carries. */
function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CONSOLE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY');
}

/** What serving the console's files reads. */
export interface ConsoleFilesContext {
  readonly config: Config;
}

async function sendFile(ctx: ConsoleFilesContext, reply: FastifyReply, name: ConsoleFile): Promise<FastifyReply> {
  let content: Buffer;
  try {
    content = await readFile(path.join(ctx.config.consoleDir, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    return secure(reply).code(503).header('Content-Type', 'text/plain; charset=utf-8').header('Cache-Control', 'no-store').send(NOT_BUILT);
  }
  // Unhashed names: the browser revalidates each time, so a rebuilt console is picked up at once.
  return secure(reply).code(200).header('Content-Type', FILES[name]).header('Cache-Control', 'no-cache').send(content);
}

export function consoleFileRoutes(ctx: ConsoleFilesContext): RouteOptions[] {
  const file = (url: string, name: ConsoleFile): RouteOptions => ({ method: 'GET', url, handler: async (_request, reply) => sendFile(ctx, reply, name) });
  return [
    { method: 'GET', url: CONSOLE_PATH.slice(0, -1), handler: async (_request, reply) => secure(reply).redirect(CONSOLE_PATH, 301) },
    file(CONSOLE_PATH, 'index.html'),
    file(`${CONSOLE_PATH}app.js`, 'app.js'),
    file(`${CONSOLE_PATH}app.css`, 'app.css'),
  ];
}
