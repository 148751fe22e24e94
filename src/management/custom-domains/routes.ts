import type { ManagementRoute } from '../route.js';
import { createCustomDomain } from './create.js';
import { deleteCustomDomain } from './delete.js';
import { getCustomDomain } from './get.js';
import { listCustomDomains } from './list.js';
import { CustomDomainService, type CustomDomainServiceContext } from './service.js';
import { updateCustomDomain } from './update.js';
import { verifyCustomDomain } from './verify.js';
import { getDefaultCustomDomain, setDefaultCustomDomain } from './default.js';
import { testCustomDomain } from './test.js';

/** /api/v2/custom-domains */
export function customDomainRoutes(ctx: CustomDomainServiceContext): ManagementRoute[] {
  const domains = new CustomDomainService(ctx);
  // /custom-domains/default is a static path: the router prefers it to /custom-domains/:id.
  return [getDefaultCustomDomain, setDefaultCustomDomain, listCustomDomains, createCustomDomain, getCustomDomain, updateCustomDomain, deleteCustomDomain, verifyCustomDomain, testCustomDomain].map((route) =>
    route(ctx, domains),
  );
}
