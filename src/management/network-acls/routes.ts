import type { ManagementRoute } from '../route.js';
import { createNetworkAcl } from './create.js';
import { deleteNetworkAcl } from './delete.js';
import { getNetworkAcl } from './get.js';
import { listNetworkAcls } from './list.js';
import { replaceNetworkAcl } from './replace.js';
import { NetworkAclService, type NetworkAclServiceContext } from './service.js';
import { updateNetworkAcl } from './update.js';

/** /api/v2/network-acls */
export function networkAclRoutes(ctx: NetworkAclServiceContext): ManagementRoute[] {
  const acls = new NetworkAclService(ctx);
  return [listNetworkAcls, createNetworkAcl, getNetworkAcl, replaceNetworkAcl, updateNetworkAcl, deleteNetworkAcl].map((route) => route(ctx, acls));
}
