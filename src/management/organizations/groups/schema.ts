/** Path parameters of /organizations/{organization_id}/groups and its roles (the document's names). */
import { Type } from '@sinclair/typebox';
import { CheckpointQuery } from '../../lists.js';
import { GroupIdParams } from '../../groups/schema.js';

const organization_id = Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' });

export const OrganizationGroupsParams = Type.Object({ organization_id });
export const OrganizationGroupParams = Type.Object({ organization_id, group_id: GroupIdParams.properties.id });

/** `from` and `take` (checkpoint paging, 50 by default). */
export const OrganizationGroupsQuery = Type.Object(CheckpointQuery, { additionalProperties: true });
