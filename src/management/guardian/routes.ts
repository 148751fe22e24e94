import type { ManagementRoute } from '../route.js';
import { getApnsProvider, setApnsProvider, updateApnsProvider } from './push-notification/apns.js';
import { setPushNotificationFactor } from './push-notification/factor.js';
import { getSelectedProvider, setSelectedProvider } from './push-notification/selected-provider.js';
import { getSnsProvider, setSnsProvider, updateSnsProvider } from './push-notification/sns.js';
import { GuardianPushService } from './service.js';
import type { AppContext } from '../../domain/context.js';

/** /api/v2/guardian/factors/push-notification… */
export function guardianRoutes(ctx: AppContext): ManagementRoute[] {
  const service = new GuardianPushService(ctx, ctx.stores.guardian);
  return [
    setPushNotificationFactor,
    getSelectedProvider,
    setSelectedProvider,
    getApnsProvider,
    setApnsProvider,
    updateApnsProvider,
    getSnsProvider,
    setSnsProvider,
    updateSnsProvider,
  ].map((route) => route(ctx, service));
}
