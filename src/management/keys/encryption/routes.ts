import type { ManagementRoute } from '../../route.js';
import { createEncryptionKey } from './create.js';
import { deleteEncryptionKey } from './delete.js';
import { getEncryptionKey } from './get.js';
import { importEncryptionKey } from './import.js';
import { listEncryptionKeys } from './list.js';
import { rekeyEncryptionKeys } from './rekey.js';
import { EncryptionKeyService, type EncryptionKeyServiceContext } from './service.js';
import { createWrappingKey } from './wrapping-key.js';

/** /api/v2/keys/encryption */
export function encryptionKeyRoutes(ctx: EncryptionKeyServiceContext): ManagementRoute[] {
  const keys = new EncryptionKeyService(ctx);
  return [listEncryptionKeys, createEncryptionKey, rekeyEncryptionKeys, getEncryptionKey, importEncryptionKey, deleteEncryptionKey, createWrappingKey].map((route) => route(ctx, keys));
}
