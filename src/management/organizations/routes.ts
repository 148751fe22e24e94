import type { ManagementRoute } from '../route.js';
import { createOrganizationClientGrant } from './client-grants/create.js';
import { deleteOrganizationClientGrant } from './client-grants/delete.js';
import { listOrganizationClientGrants } from './client-grants/list.js';
import { OrganizationClientGrantService, type OrganizationClientGrantServiceContext } from './client-grants/service.js';
import { createOrganization } from './create.js';
import { deleteOrganization } from './delete.js';
import { getOrganization } from './get.js';
import { listOrganizations } from './list.js';
import { OrganizationService, type OrganizationServiceContext } from './service.js';
import { updateOrganization } from './update.js';
import { getOrganizationByName } from './get-by-name.js';
import { addOrganizationMembers } from './members/create.js';
import { removeOrganizationMembers } from './members/delete.js';
import { listOrganizationMembers } from './members/list.js';
import { assignOrganizationMemberRoles } from './members/roles/create.js';
import { removeOrganizationMemberRoles } from './members/roles/delete.js';
import { listOrganizationMemberRoles } from './members/roles/list.js';
import { OrganizationMemberService, type OrganizationMemberServiceContext } from './members/service.js';
import { addOrganizationConnection } from './enabled-connections/create.js';
import { removeOrganizationConnection } from './enabled-connections/delete.js';
import { getOrganizationConnection } from './enabled-connections/get.js';
import { listOrganizationConnections } from './enabled-connections/list.js';
import { OrganizationConnectionService, type OrganizationConnectionServiceContext } from './enabled-connections/service.js';
import { updateOrganizationConnection } from './enabled-connections/update.js';
import { createOrganizationInvitation } from './invitations/create.js';
import { deleteOrganizationInvitation } from './invitations/delete.js';
import { getOrganizationInvitation } from './invitations/get.js';
import { listOrganizationInvitations } from './invitations/list.js';
import { OrganizationInvitationService, type OrganizationInvitationServiceContext } from './invitations/service.js';
import { createOrganizationDiscoveryDomain } from './discovery-domains/create.js';
import { deleteOrganizationDiscoveryDomain } from './discovery-domains/delete.js';
import { getOrganizationDiscoveryDomainByName } from './discovery-domains/get-by-name.js';
import { getOrganizationDiscoveryDomain } from './discovery-domains/get.js';
import { listOrganizationDiscoveryDomains } from './discovery-domains/list.js';
import { OrganizationDiscoveryDomainService, type OrganizationDiscoveryDomainServiceContext } from './discovery-domains/service.js';
import { updateOrganizationDiscoveryDomain } from './discovery-domains/update.js';
import { addOrganizationAllConnection } from './connections/create.js';
import { removeOrganizationAllConnection } from './connections/delete.js';
import { getOrganizationAllConnection } from './connections/get.js';
import { listOrganizationAllConnections } from './connections/list.js';
import { OrganizationAllConnectionService } from './connections/service.js';
import { updateOrganizationAllConnection } from './connections/update.js';
import { listOrganizationGroups } from './groups/list.js';
import { assignOrganizationGroupRoles } from './groups/roles/create.js';
import { removeOrganizationGroupRoles } from './groups/roles/delete.js';
import { listOrganizationGroupRoles } from './groups/roles/list.js';
import { OrganizationGroupService, type OrganizationGroupServiceContext } from './groups/service.js';
import { listOrganizationMemberEffectiveRoles } from './members/effective-roles/list.js';
import { listOrganizationMemberRoleSourceGroups } from './members/effective-roles/sources/groups.js';

/** /api/v2/organizations and its sub-resources: client grants, members and their roles, enabled connections (also as /connections), invitations, discovery domains, groups and their roles. */
export function organizationRoutes(ctx: OrganizationServiceContext & OrganizationGroupServiceContext & OrganizationClientGrantServiceContext & OrganizationMemberServiceContext & OrganizationConnectionServiceContext & OrganizationInvitationServiceContext & OrganizationDiscoveryDomainServiceContext): ManagementRoute[] {
  const store = ctx.stores.organizations;
  const organizations = new OrganizationService(ctx, store);
  const clientGrants = new OrganizationClientGrantService(ctx, store);
  const members = new OrganizationMemberService(ctx);
  const connections = new OrganizationConnectionService(ctx);
  const invitations = new OrganizationInvitationService(ctx);
  const discoveryDomains = new OrganizationDiscoveryDomainService(ctx);
  const allConnections = new OrganizationAllConnectionService(connections);
  const groups = new OrganizationGroupService(ctx);
  const organizationOperations = [listOrganizations, createOrganization, getOrganization, getOrganizationByName, updateOrganization, deleteOrganization];
  const clientGrantOperations = [listOrganizationClientGrants, createOrganizationClientGrant, deleteOrganizationClientGrant];
  return [
    ...organizationOperations.map((route) => route(ctx, organizations)),
    ...clientGrantOperations.map((route) => route(ctx, clientGrants)),
    ...[listOrganizationMembers, addOrganizationMembers, removeOrganizationMembers, listOrganizationMemberRoles, assignOrganizationMemberRoles, removeOrganizationMemberRoles].map(
      (route) => route(ctx, members),
    ),
    ...[listOrganizationConnections, addOrganizationConnection, getOrganizationConnection, updateOrganizationConnection, removeOrganizationConnection].map((route) =>
      route(ctx, connections),
    ),
    ...[listOrganizationAllConnections, addOrganizationAllConnection, getOrganizationAllConnection, updateOrganizationAllConnection, removeOrganizationAllConnection].map(
      (route) => route(ctx, allConnections),
    ),
    ...[listOrganizationInvitations, createOrganizationInvitation, getOrganizationInvitation, deleteOrganizationInvitation].map((route) =>
      route(ctx, invitations),
    ),
    ...[
      listOrganizationGroups,
      listOrganizationGroupRoles,
      assignOrganizationGroupRoles,
      removeOrganizationGroupRoles,
      listOrganizationMemberEffectiveRoles,
      listOrganizationMemberRoleSourceGroups,
    ].map((route) => route(ctx, groups)),
    ...[
      listOrganizationDiscoveryDomains,
      createOrganizationDiscoveryDomain,
      getOrganizationDiscoveryDomainByName,
      getOrganizationDiscoveryDomain,
      updateOrganizationDiscoveryDomain,
      deleteOrganizationDiscoveryDomain,
    ].map((route) => route(ctx, discoveryDomains)),
  ];
}
