import type { ManagementRoute } from '../../route.js';
import type { PhoneDeliveryContext, PhoneProviderContext } from '../../../domain/branding/phone-providers.js';
import { createPhoneProvider } from './create.js';
import { deletePhoneProvider } from './delete.js';
import { getPhoneProvider } from './get.js';
import { listPhoneProviders } from './list.js';
import { PhoneProviderService } from './service.js';
import { tryPhoneProvider } from './try.js';
import { updatePhoneProvider } from './update.js';

/** /api/v2/branding/phone/providers */
export function phoneProviderRoutes(ctx: PhoneProviderContext & PhoneDeliveryContext): ManagementRoute[] {
  const providers = new PhoneProviderService(ctx);
  return [listPhoneProviders, createPhoneProvider, getPhoneProvider, updatePhoneProvider, deletePhoneProvider, tryPhoneProvider].map((route) => route(ctx, providers));
}
