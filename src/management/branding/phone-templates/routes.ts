import type { ManagementRoute } from '../../route.js';
import type { PhoneDeliveryContext } from '../../../domain/branding/phone-providers.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import { createPhoneTemplate } from './create.js';
import { deletePhoneTemplate } from './delete.js';
import { getPhoneTemplate } from './get.js';
import { listPhoneTemplates } from './list.js';
import { resetPhoneTemplate } from './reset.js';
import { PhoneTemplateService } from './service.js';
import { tryPhoneTemplate } from './try.js';
import { updatePhoneTemplate } from './update.js';

/** /api/v2/branding/phone/templates */
export function phoneTemplateRoutes(ctx: UiSettingsContext & PhoneDeliveryContext): ManagementRoute[] {
  const templates = new PhoneTemplateService(ctx);
  return [listPhoneTemplates, createPhoneTemplate, getPhoneTemplate, updatePhoneTemplate, resetPhoneTemplate, deletePhoneTemplate, tryPhoneTemplate].map((route) => route(ctx, templates));
}
