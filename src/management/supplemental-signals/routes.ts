import type { ManagementRoute } from '../route.js';
import { getSupplementalSignals } from './get.js';
import { SupplementalSignalsService, type SupplementalSignalsServiceContext } from './service.js';
import { updateSupplementalSignals } from './update.js';

/** /api/v2/supplemental-signals */
export function supplementalSignalsRoutes(ctx: SupplementalSignalsServiceContext): ManagementRoute[] {
  const service = new SupplementalSignalsService(ctx);
  return [getSupplementalSignals, updateSupplementalSignals].map((route) => route(ctx, service));
}
