import type { ManagementRoute } from '../route.js';
import { previewCimdMetadata } from './cimd/preview.js';
import { registerCimdClient } from './cimd/register.js';
import { CimdService, type CimdContext } from './cimd/service.js';
import { createClient } from './create.js';
import { deleteClient } from './delete.js';
import { getClient } from './get.js';
import { listClients } from './list.js';
import { rotateClientSecret } from './rotate-secret.js';
import { ClientService, type ClientServiceContext } from './service.js';
import { updateClient } from './update.js';

/** /api/v2/clients */
export function clientRoutes(ctx: ClientServiceContext & CimdContext): ManagementRoute[] {
  const service = new ClientService(ctx);
  const cimd = new CimdService(ctx);
  return [
    ...[listClients, createClient, getClient, updateClient, deleteClient, rotateClientSecret].map((route) => route(ctx, service)),
    ...[previewCimdMetadata, registerCimdClient].map((route) => route(ctx, cimd)),
  ];
}
