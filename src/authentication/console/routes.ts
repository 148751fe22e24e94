/**
 * The admin console at https://{domain}/admin/ (src/domain/console/): its
 * files, its configuration, the first operator's setup page and the login
 * page's live preview. The console itself then works only through the
 * public Management API, with the operator's token.
 */
import type { RouteOptions } from 'fastify';
import type { Sessions } from '../interaction/sessions.js';
import { consoleConfigRoute } from './config.js';
import { consoleFileRoutes, type ConsoleFilesContext } from './files.js';
import { loginPreviewRoute } from './preview.js';
import { consoleSetupRoutes, type ConsoleSetupPagesContext } from './setup.js';
import type { UiSettingsContext } from '../../domain/branding/service.js';

export function consoleRoutes(ctx: ConsoleFilesContext & ConsoleSetupPagesContext & UiSettingsContext, sessions: Sessions): RouteOptions[] {
  return [...consoleFileRoutes(ctx), consoleConfigRoute(), ...consoleSetupRoutes(ctx, sessions), loginPreviewRoute(ctx)];
}
