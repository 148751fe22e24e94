/**
 * Which connections take inbound directory provisioning, what they must have
 * set up first, and the mapping between a directory user (Google's Admin SDK
 * `User` resource) and the user profile. The mapping follows the SCIM
 * provisioning's conventions (../scim/mapping.ts): the same profile targets
 * (root attributes, `app_metadata.*`, `user_metadata.*`) and the same
 * attribute paths (`name.givenName`, `organizations[primary eq true].title`),
 * read by the same code. `blocked` is not a target: a user suspended,
 * archived or removed in the directory is blocked by the synchronization itself.
 */
import { mappedProfile, mappingProblem as scimMappingProblem, type ElementFilter, type MappedProfile } from '../scim/mapping.js';
import type { JsonObject } from '../json.js';
import type { DirectoryMappingItem } from './rows.js';

/** The service's document names Google Workspace only (its messages: "The Google Workspace Users API is not enabled …"). */
export const DIRECTORY_STRATEGIES: readonly string[] = ['google-apps'];

export const takesDirectoryProvisioning = (strategy: string): boolean => DIRECTORY_STRATEGIES.includes(strategy);

/** The default mapping of a Google Workspace directory. */
export const DEFAULT_DIRECTORY_MAPPING: readonly DirectoryMappingItem[] = [
  { auth0: 'email', idp: 'primaryEmail' },
  { auth0: 'name', idp: 'name.fullName' },
  { auth0: 'given_name', idp: 'name.givenName' },
  { auth0: 'family_name', idp: 'name.familyName' },
  { auth0: 'picture', idp: 'thumbnailPhotoUrl' },
  { auth0: 'app_metadata.external_id', idp: 'id' },
  { auth0: 'app_metadata.title', idp: 'organizations[primary eq true].title' },
  { auth0: 'app_metadata.department', idp: 'organizations[primary eq true].department' },
  { auth0: 'app_metadata.cost_center', idp: 'organizations[primary eq true].costCenter' },
  { auth0: 'app_metadata.employee_id', idp: 'externalIds[type eq "organization"].value' },
  { auth0: 'app_metadata.mobile_phone_number', idp: 'phones[type eq "mobile"].value' },
  { auth0: 'app_metadata.org_unit_path', idp: 'orgUnitPath' },
];

/** What is wrong with a mapping (400 "Invalid mapping provided: …"), or undefined. */
export function directoryMappingProblem(mapping: readonly DirectoryMappingItem[]): string | undefined {
  if (mapping.some((item) => item.auth0 === 'blocked')) return 'blocked is not mapped: a user suspended or removed in the directory is blocked';
  return scimMappingProblem(
    mapping.map((item) => ({ auth0: item.auth0, scim: item.idp })),
    'id',
  )?.replace('SCIM attribute path', 'directory attribute path');
}

/** The profile a directory user makes through the mapping. */
export function directoryProfile(user: JsonObject, mapping: readonly DirectoryMappingItem[], elementFilter: ElementFilter): MappedProfile | { invalid: string } {
  return mappedProfile(
    user,
    mapping.map((item) => ({ auth0: item.auth0, scim: item.idp })),
    elementFilter,
  );
}

/**
 * The connection's setup a synchronization needs, as the service checks it:
 * the Users API enabled, the administrator's consent given (its refresh
 * token), and the Groups API when groups are synchronized. The message of
 * the first one missing, or undefined.
 */
export function setupProblem(options: Readonly<Record<string, unknown>>, groups: 'all' | 'off' | 'selected'): string | undefined {
  if (options.api_enable_users !== true) return 'The Google Workspace Users API is not enabled on the connection. Select the Enable Users API option and go through the setup again.';
  if (typeof options.admin_refresh_token !== 'string' || options.admin_refresh_token === '' || typeof options.client_id !== 'string') {
    return 'The connection cannot be synchronized because setup is incomplete. Please complete the Google Workspace connection administrator setup and try again.';
  }
  if (groups !== 'off' && options.api_enable_groups !== true) return groupsApiProblem();
  return undefined;
}

export const groupsApiProblem = (): string =>
  'The Google Workspace Groups API is not enabled on the connection. Select the Enable Groups API option and go through the setup again.';
