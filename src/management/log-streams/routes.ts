import type { ManagementRoute } from '../route.js';
import { createLogStream } from './create.js';
import { deleteLogStream } from './delete.js';
import { getLogStream } from './get.js';
import { listLogStreams } from './list.js';
import { LogStreamService } from './service.js';
import { updateLogStream } from './update.js';
import type { AppContext } from '../../domain/context.js';

/** /api/v2/log-streams */
export function logStreamRoutes(ctx: AppContext): ManagementRoute[] {
  const streams = new LogStreamService(ctx);
  return [listLogStreams, createLogStream, getLogStream, updateLogStream, deleteLogStream].map((route) => route(ctx, streams));
}
