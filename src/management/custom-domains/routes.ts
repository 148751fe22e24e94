import type { ManagementRoute } from '../route.js';
import { createCustomDomain } from './create.js';
import { deleteCustomDomain } from './delete.js';
import { getCustomDomain } from './get.js';
import { listCustomDomains } from './list.js';
import { CustomDomainService, type CustomDomainServiceContext } from './service.js';
import { updateCustomDomain } from './update.js';
import { verifyCustomDomain } from './verify.js';

/** /api/v2/custom-domains */
export function customDomainRoutes(ctx: CustomDomainServiceContext): ManagementRoute[] {
  const domains = new CustomDomainService(ctx);
  return [listCustomDomains, createCustomDomain, getCustomDomain, updateCustomDomain, deleteCustomDomain, verifyCustomDomain].map((route) => route(ctx, domains));
}
