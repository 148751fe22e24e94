import type { ManagementRoute } from '../../route.js';
import { createClientCredential } from './create.js';
import { deleteClientCredential } from './delete.js';
import { getClientCredential } from './get.js';
import { listClientCredentials } from './list.js';
import { ClientCredentialService, type ClientCredentialServiceContext } from './service.js';
import { updateClientCredential } from './update.js';

/** /api/v2/clients/{client_id}/credentials */
export function clientCredentialRoutes(ctx: ClientCredentialServiceContext): ManagementRoute[] {
  const credentials = new ClientCredentialService(ctx);
  return [listClientCredentials, createClientCredential, getClientCredential, updateClientCredential, deleteClientCredential].map((route) => route(ctx, credentials));
}
