import type { ManagementRoute } from '../route.js';
import { createLogStream } from './create.js';
import { deleteLogStream } from './delete.js';
import { getLogStream } from './get.js';
import { listLogStreams } from './list.js';
import { LogStreamService, type LogStreamServiceContext } from './service.js';
import { updateLogStream } from './update.js';

/** /api/v2/log-streams */
export function logStreamRoutes(ctx: LogStreamServiceContext): ManagementRoute[] {
  const streams = new LogStreamService(ctx);
  return [listLogStreams, createLogStream, getLogStream, updateLogStream, deleteLogStream].map((route) => route(ctx, streams));
}
