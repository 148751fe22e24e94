/**
 * Account linking (POST and DELETE /api/v2/users/{id}/identities…): a user
 * (the secondary) becomes an identity of another (the primary), and back.
 *
 * Linked, the secondary is no user of its own: GET /users/{secondary} is a
 * 404, lists and searches skip it, and a login through its connection with
 * its credentials logs the primary in (src/domain/users/linked.ts). What it
 * had as a user goes: its metadata (the service keeps the primary's), its
 * roles, permissions, group and organization memberships, its sessions and
 * refresh tokens. Unlinked, it is a user again with its profile and
 * credentials and no metadata, as the service's unlinked account is.
 *
 * Refusals are worded as the OpenAPI document's x-descriptions of the two
 * operations; their errorCodes are not recorded, so the 400s carry none, the
 * 409s the generic `conflict`, an unknown primary the users' `inexistent_user`.
 * Two refusals are Gatehouse's own, worded plainly: a second identity in a
 * connection the primary already has one in (409), and an unlink of an
 * identity not linked to the user (404). Each link and unlink is one transaction.
 */
import { decodeProtectedHeader } from 'jose';
import type { JWTPayload } from 'jose';
import { managementErrors } from '../../../platform/http/errors.js';
import { isoAt } from '../../../platform/clock.js';
import { SIGNING_ALG } from '../../../domain/keys/keyring.js';
import { verifyTenantJwt } from '../../../domain/tokens/verify.js';
import { endUserSessions } from '../../../domain/backchannel-logout/announce.js';
import { identitiesOf, type UserIdentity } from '../../../domain/users/model.js';
import type { UserWithConnection } from '../../../domain/users/store.js';
import type { Stores, UnitOfWork } from '../../../domain/stores.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import type { ManagementPrincipal } from '../../auth.js';
import { payloadMissing, userNotFound } from '../service.js';
import type { LinkIdentityBody } from './schema.js';
import type { IssuanceLookups } from '../../../domain/issuance/lookups.js';
import type { Keyring } from '../../../domain/keys/keyring.js';

const refused = (message: string) => managementErrors.badRequest(message);
const invalidLinkWith = () => refused('Invalid token (link_with).');
const sameIdentity = () => refused('Main identity and the new one are the same.');
const notLinkable = () => refused('Unable to link with the secondary account.');
const identityExists = () => managementErrors.conflict('Specified identity already exists.');

/** Who the secondary is: a user id, named by the body or by the `sub` of its ID token. */
type Secondary = { kind: 'identity'; userId: string; connectionId?: string } | { kind: 'id_token'; userId: string };

/** What UserIdentityService touches. */
export interface UserIdentityServiceContext {
  readonly keyring: Keyring;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly unitOfWork: UnitOfWork;
}

export class UserIdentityService {
  constructor(private readonly ctx: UserIdentityServiceContext) {}

  /**
   * Links the secondary (`provider` + `user_id`, or the ID token `link_with`)
   * to the primary `primaryId`; the primary's identities after it. An end
   * user's own token may link only with `link_with`.
   */
  async link(tenant: Tenant, primaryId: string, body: LinkIdentityBody, principal: ManagementPrincipal): Promise<UserIdentity[]> {
    const secondary = await this.secondaryOf(tenant, body, principal);
    const now = isoAt(this.ctx.now());
    return this.ctx.unitOfWork.transaction(async (stores) => {
      const primary = await stores.users.get(tenant.id, primaryId);
      if (!primary) throw userNotFound();
      if (secondary.userId === primary.user_id) throw sameIdentity();
      const row = await this.secondaryRow(tenant, stores, secondary);
      const identities = await stores.users.linkedIdentities(tenant.id, [primary.user_id]);
      if (row.linked_to === primary.user_id) throw identityExists();
      if (row.linked_to) throw notLinkable();
      // One identity per connection: the connection is how an update names the identity it changes.
      if ([primary, ...identities].some((identity) => identity.connection_id === row.connection_id)) {
        throw managementErrors.conflict(`The user already has an identity in the connection ${row.connection_name}.`);
      }
      // Its own identities would have to move with it: refused rather than merged.
      if ((await stores.users.linkedIdentities(tenant.id, [row.user_id])).length > 0) throw notLinkable();
      if (!(await stores.users.link(tenant.id, row.user_id, primary.user_id, now))) throw notLinkable();
      // Its sessions and refresh tokens answered for a user that is no more.
      await endUserSessions({ stores, lookups: this.ctx.lookups, now: () => Date.parse(now) }, tenant.id, row.user_id, 'account-deleted', { revoke: true });
      await stores.refreshTokens.revokeForUser(tenant.id, row.user_id, now);
      return identitiesOf(primary, primary.connection_name, [...identities, { ...row, linked_to: primary.user_id }]);
    });
  }

  /** Makes the identity `provider|userId` linked to `primaryId` a user again; the primary's remaining identities. */
  async unlink(tenant: Tenant, primaryId: string, provider: string, userId: string): Promise<UserIdentity[]> {
    const secondaryId = `${provider}|${userId}`;
    const now = isoAt(this.ctx.now());
    return this.ctx.unitOfWork.transaction(async (stores) => {
      const primary = await stores.users.get(tenant.id, primaryId);
      if (!primary) throw userNotFound();
      if (secondaryId === primary.user_id) throw refused('Main identity cannot be removed.');
      if (!(await stores.users.unlink(tenant.id, secondaryId, primary.user_id, now))) {
        throw managementErrors.notFound('The user has no linked identity with this provider and user_id.');
      }
      return identitiesOf(primary, primary.connection_name, await stores.users.linkedIdentities(tenant.id, [primary.user_id]));
    });
  }

  /** The secondary the body names, its ID token verified; the body's shape checked as the service does. */
  private async secondaryOf(tenant: Tenant, body: LinkIdentityBody, principal: ManagementPrincipal): Promise<Secondary> {
    const named = body.provider !== undefined || body.user_id !== undefined || body.connection_id !== undefined;
    if (body.link_with !== undefined) {
      if (named) throw managementErrors.invalidBody("Payload validation error: 'link_with cannot be sent with provider, user_id or connection_id'.");
      return { kind: 'id_token', userId: await this.idTokenSubject(tenant, body.link_with, principal) };
    }
    // An end user links with the ID token of the other account only: naming any user takes `update:users`.
    if (principal.kind === 'user') throw managementErrors.insufficientScope(['update:users']);
    if (body.provider === undefined) throw payloadMissing('provider');
    if (body.user_id === undefined) throw payloadMissing('user_id');
    return { kind: 'identity', userId: `${body.provider}|${body.user_id}`, ...(body.connection_id !== undefined && { connectionId: body.connection_id }) };
  }

  /**
   * The `sub` of a `link_with` ID token: issued by this tenant (signed by its
   * keys with RS256, its issuer), unexpired, to the client calling (its
   * `aud` is the calling token's `azp`), as the service requires.
   */
  private async idTokenSubject(tenant: Tenant, token: string, principal: ManagementPrincipal): Promise<string> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw invalidLinkWith();
    }
    if (alg !== SIGNING_ALG) throw refused('JWT (link_with) must have an alg of RS256.');
    const verified = await verifyTenantJwt(this.ctx, tenant, token, 'link_with');
    if (!verified.ok) throw invalidLinkWith();
    const { payload } = verified;
    if (!audienceIncludes(payload, principal.clientId)) throw refused("JWT (link_with) must have an aud claim that matches that of the calling token's azp.");
    if (payload.sub === undefined) throw refused('JWT (link_with) must contains sub claim.');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw refused('JWT (link_with) contains an invalid sub claim.');
    return payload.sub;
  }

  /** The secondary's row, linked or not; refused when there is none (or not in the connection named). */
  private async secondaryRow(tenant: Tenant, stores: Stores, secondary: Secondary): Promise<UserWithConnection> {
    if (secondary.kind === 'identity' && secondary.connectionId !== undefined && !(await stores.connections.get(tenant.id, secondary.connectionId))) {
      throw refused('The provider/connection is not configured.');
    }
    const row = await stores.users.getIdentity(tenant.id, secondary.userId);
    if (secondary.kind === 'id_token') {
      if (!row) throw refused('Provided secondary account not found.');
      return row;
    }
    if (!row || (secondary.connectionId !== undefined && row.connection_id !== secondary.connectionId)) {
      throw refused('Linking to an inexistent identity is not allowed.');
    }
    return row;
  }
}

function audienceIncludes(payload: JWTPayload, clientId: string | undefined): boolean {
  if (clientId === undefined) return false;
  return Array.isArray(payload.aud) ? payload.aud.includes(clientId) : payload.aud === clientId;
}
