/**
 * The profiles a client's express configuration (OIN) and My Organization
 * configuration name (`connection_profile_id`, `user_attribute_profile_id`)
 * must be profiles of the tenant: a body naming one that does not exist is
 * refused with 400 before anything is written (as the token exchange
 * profiles refuse an action that does not exist). Deleting a profile a
 * client names is refused by the profile's own service.
 */
import type { ConnectionProfileStore } from '../../domain/connection-profiles/store.js';
import type { UserAttributeProfileStore } from '../../domain/user-attribute-profiles/store.js';
import { managementErrors } from '../../platform/http/errors.js';

/** What the check reads. */
export interface ProfileReferenceStores {
  readonly connectionProfiles: Pick<ConnectionProfileStore, 'get'>;
  readonly userAttributeProfiles: Pick<UserAttributeProfileStore, 'get'>;
}

const MEMBERS = ['express_configuration', 'my_organization_configuration'] as const;

/** Refuses (400) a body whose configurations name a profile the tenant does not have; members the body does not set are not read. */
export async function checkProfileReferences(stores: ProfileReferenceStores, tenantId: string, body: Record<string, unknown>): Promise<void> {
  for (const member of MEMBERS) {
    const value = body[member] as { connection_profile_id?: unknown; user_attribute_profile_id?: unknown } | null | undefined;
    if (!value) continue;
    const connection = value.connection_profile_id;
    if (typeof connection === 'string' && !(await stores.connectionProfiles.get(tenantId, connection))) {
      throw managementErrors.invalidBody(`Payload validation error: 'The connection profile ${connection} does not exist' on property ${member}.connection_profile_id.`);
    }
    const attributes = value.user_attribute_profile_id;
    if (typeof attributes === 'string' && !(await stores.userAttributeProfiles.get(tenantId, attributes))) {
      throw managementErrors.invalidBody(`Payload validation error: 'The user attribute profile ${attributes} does not exist' on property ${member}.user_attribute_profile_id.`);
    }
  }
}
