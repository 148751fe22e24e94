import type { ManagementRoute } from '../route.js';
import { RefreshTokenService, type RefreshTokenServiceContext } from '../refresh-tokens/service.js';
import { createDeviceCredential } from './create.js';
import { deleteDeviceCredential } from './delete.js';
import { listDeviceCredentials } from './list.js';
import { DeviceCredentialService, type DeviceCredentialServiceContext } from './service.js';

/** /api/v2/device-credentials */
export function deviceCredentialRoutes(ctx: DeviceCredentialServiceContext & RefreshTokenServiceContext): ManagementRoute[] {
  const credentials = new DeviceCredentialService(ctx, new RefreshTokenService(ctx));
  return [listDeviceCredentials, createDeviceCredential, deleteDeviceCredential].map((route) => route(ctx, credentials));
}
