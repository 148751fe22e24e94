/**
 * One synchronization of a connection's directory (a `directory_sync` job,
 * run by src/domain/jobs/runner.ts): the directory's users are read page by
 * page (users.list, `nextPageToken`), at most `maxUsers` of them; each is
 * written as a user of the connection through the mapping (created, or
 * updated), in its own transaction with its tenant events; a user suspended
 * or archived in the directory is blocked and their sessions end. When the
 * run read the whole directory, a user it wrote before and did not see this
 * time (removed from the directory) is blocked too; a run cut short by the
 * bound blocks nobody for absence. A block the directory caused is lifted
 * when the directory reactivates the user; a block an administrator set is
 * never lifted by a synchronization.
 *
 * Groups (`synchronize_groups` `all`, or `selected`): the members of each
 * group become the group names in the user's `app_metadata.groups`.
 *
 * The run is idempotent: a job a stopped process left is run again from the
 * start by whichever process claims it, and writes the same users.
 */
import { endUserSessions, type UserSessionsEnding } from '../backchannel-logout/announce.js';
import type { ConnectionRow } from '../connections/model.js';
import type { ConnectionStore } from '../connections/store.js';
import { enterpriseUserId } from '../connections/strategies/strategy.js';
import { recordEvent, type EventTenant } from '../event-streams/events.js';
import type { JsonObject } from '../json.js';
import type { JobRow, JobSummary } from '../jobs/rows.js';
import type { ElementFilter } from '../scim/mapping.js';
import { elementFilterOf } from '../scim/element-filter.js';
import type { Stores, UnitOfWork } from '../stores.js';
import { userFromRow } from '../users/model.js';
import { baseUserRow } from '../users/new-user.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { upstreamFetch, type UpstreamFetch } from '../../platform/http/upstream-fetch.js';
import type { OutboundPolicy } from '../../platform/http/outbound-guard.js';
import { DirectoryError, GOOGLE_TOKEN_ENDPOINT, GoogleDirectoryClient, USERS_PAGE_SIZE, type DirectoryGroup } from './google-directory.js';
import { directoryProfile, setupProblem } from './mapping.js';
import type { DirectoryProvisioningRow } from './rows.js';
import type { DirectoryProvisioningStore } from './store.js';

export { DirectoryError } from './google-directory.js';

/** Most groups a run reads, and members per group. */
const MAX_GROUPS = 1000;
const MAX_MEMBERS_PER_GROUP = 50_000;
/** Absent users blocked per page of the record. */
const ABSENT_PAGE = 500;

export interface DirectorySyncContext extends UserSessionsEnding {
  readonly now: () => number;
  readonly config: { readonly outbound: OutboundPolicy; readonly directorySync: { readonly googleUrl: string; readonly maxUsers: number } };
  /** The CA file's content, read once (GATEHOUSE_GOOGLE_DIRECTORY_CA_FILE). */
  readonly directoryCa?: string | undefined;
  readonly tenants: { list(): Promise<readonly EventTenant[]> };
  readonly unitOfWork: UnitOfWork;
  readonly stores: UserSessionsEnding['stores'] & {
    readonly connections: Pick<ConnectionStore, 'get'>;
    readonly directoryProvisioning: DirectoryProvisioningStore;
  };
}

/** Called after each page: records progress and extends the job's lease (throws when the process stops or lost the job). */
export type SyncCheckpoint = (progress: number, summary: JobSummary) => Promise<void>;

export interface SyncOutcome {
  summary: JobSummary & { blocked: number };
  /** Set when the run stopped at the bound. */
  note?: string;
}

const fetchers = new WeakMap<object, UpstreamFetch>();
function fetcherOf(ctx: DirectorySyncContext): UpstreamFetch {
  let fetch = fetchers.get(ctx);
  if (!fetch) {
    fetch = upstreamFetch({ outbound: ctx.config.outbound, ...(ctx.directoryCa !== undefined && { ca: ctx.directoryCa }) });
    fetchers.set(ctx, fetch);
  }
  return fetch;
}

interface Target {
  tenant: EventTenant;
  connection: ConnectionRow;
  configuration: DirectoryProvisioningRow;
  syncId: string;
}

export async function runDirectorySync(ctx: DirectorySyncContext, job: JobRow, checkpoint: SyncCheckpoint): Promise<SyncOutcome> {
  const tenant = (await ctx.tenants.list()).find((t) => t.id === job.tenant_id);
  const connection = tenant && job.connection_id ? await ctx.stores.connections.get(tenant.id, job.connection_id) : undefined;
  const configuration = connection ? await ctx.stores.directoryProvisioning.get(job.tenant_id, connection.id) : undefined;
  if (!tenant || !connection || !configuration) throw new DirectoryError('The connection or its directory provisioning configuration no longer exists.');
  const target: Target = { tenant, connection, configuration, syncId: job.id };
  await ctx.stores.directoryProvisioning.setSynchronization(tenant.id, connection.id, { last_synchronization_at: configuration.last_synchronization_at, last_synchronization_status: 'running', last_synchronization_error: null });

  const options = connection.options;
  const problem = setupProblem(options, configuration.synchronize_groups);
  if (problem) throw new DirectoryError(problem);
  const metadata = options.oidc_metadata as { token_endpoint?: unknown } | undefined;
  const client = new GoogleDirectoryClient(fetcherOf(ctx), ctx.config.directorySync.googleUrl, {
    tokenEndpoint: typeof metadata?.token_endpoint === 'string' ? metadata.token_endpoint : GOOGLE_TOKEN_ENDPOINT,
    clientId: String(options.client_id),
    clientSecret: typeof options.client_secret === 'string' ? options.client_secret : '',
    refreshToken: String(options.admin_refresh_token),
  });

  const groups = await groupsByMember(ctx, client, target);
  const filter = await elementFilterOf();
  const max = ctx.config.directorySync.maxUsers;
  const summary = { failed: 0, updated: 0, inserted: 0, total: 0, blocked: 0 };
  // Whether the run saw every user of the directory: only then is an absent user blocked.
  let complete = false;
  for (let pageToken: string | undefined; ; ) {
    const page = await client.users(pageToken, Math.min(USERS_PAGE_SIZE, max));
    const taken = page.items.slice(0, max - summary.total);
    for (const user of taken) {
      summary.total++;
      const written = await writeUser(ctx, target, user, groups, filter);
      if (written === 'failed') summary.failed++;
      else if (written.created) summary.inserted++;
      else summary.updated++;
      if (written !== 'failed' && written.blocked) summary.blocked++;
    }
    await checkpoint(summary.total, summary);
    if (taken.length < page.items.length) break;
    if (!page.nextPageToken) {
      complete = true;
      break;
    }
    if (summary.total >= max) break;
    pageToken = page.nextPageToken;
  }
  if (!complete) {
    return { summary, note: `The directory has more than ${max} users: the first ${max} were synchronized, and nobody was blocked for being absent.` };
  }
  summary.blocked += await blockAbsent(ctx, target);
  return { summary };
}

/** Directory user id → the names of the synchronized groups they are a direct member of (undefined when groups are off). */
async function groupsByMember(ctx: DirectorySyncContext, client: GoogleDirectoryClient, target: Target): Promise<Map<string, string[]> | undefined> {
  const mode = target.configuration.synchronize_groups;
  if (mode === 'off') return undefined;
  let selected: Set<string> | undefined;
  if (mode === 'selected') {
    selected = new Set();
    for (let after: string | undefined; ; ) {
      const ids = await ctx.stores.directoryProvisioning.listGroups(target.tenant.id, target.connection.id, { ...(after !== undefined && { after }), limit: 500 });
      ids.forEach((id) => selected!.add(id));
      if (ids.length < 500) break;
      after = ids.at(-1);
    }
  }
  const groups: DirectoryGroup[] = [];
  for (let pageToken: string | undefined; groups.length < MAX_GROUPS; ) {
    const page = await client.groups(pageToken);
    groups.push(...page.items.filter((g) => !selected || selected.has(g.id)));
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  const members = new Map<string, string[]>();
  for (const group of groups.slice(0, MAX_GROUPS)) {
    const name = group.name ?? group.email ?? group.id;
    let read = 0;
    for (let pageToken: string | undefined; read < MAX_MEMBERS_PER_GROUP; ) {
      const page = await client.members(group.id, pageToken);
      for (const member of page.items) {
        if (member.type !== undefined && member.type !== 'USER') continue;
        read++;
        const list = members.get(member.id) ?? [];
        if (!list.includes(name)) list.push(name);
        members.set(member.id, list);
      }
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
  }
  return members;
}

/** One directory user written; `failed` when the mapping cannot take it or its id belongs to another connection. */
async function writeUser(
  ctx: DirectorySyncContext,
  target: Target,
  user: JsonObject,
  groups: Map<string, string[]> | undefined,
  filter: ElementFilter,
): Promise<'failed' | { created: boolean; blocked: boolean }> {
  const { tenant, connection, configuration } = target;
  const directoryId = user.id as string;
  const primaryEmail = user.primaryEmail as string;
  const mapped = directoryProfile(user, configuration.mapping, filter);
  if ('invalid' in mapped) return 'failed';
  const userId = enterpriseUserId(connection.strategy)(connection, connection.options.map_user_id_to_id === true ? directoryId : primaryEmail);
  const suspended = user.suspended === true || user.archived === true;
  const root = mapped.root;
  const email = root.email ?? primaryEmail;
  const now = isoAt(ctx.now());
  if (groups) mapped.app_metadata.groups = groups.get(directoryId) ?? [];
  let outcome: { created: boolean; blocked: boolean; ended: boolean } | 'failed' = 'failed';
  // A user whose email or username another user of the connection holds is counted as failed; the others go on.
  await ctx.unitOfWork.transaction(async (stores: Stores) => {
    const existing = await stores.users.getIdentity(tenant.id, userId);
    if (existing && existing.connection_id !== connection.id) return;
    const record = existing ? await stores.directoryProvisioning.getUser(tenant.id, userId) : undefined;
    const wasBlocked = existing?.blocked === 1;
    // The directory blocks a suspended user, and lifts only a block it set itself.
    const blocked = suspended || (wasBlocked && record?.blocked_by_directory !== 1);
    const blockedByDirectory = suspended && (!wasBlocked || record?.blocked_by_directory === 1);
    const metadata = (kind: 'app_metadata' | 'user_metadata') => {
      const merged: JsonObject = { ...(existing?.[kind] ?? {}), ...mapped[kind] };
      for (const key of mapped.unset[kind]) delete merged[key];
      return merged;
    };
    const fields = {
      email,
      email_lower: email.toLowerCase(),
      ...(root.name !== undefined && { name: root.name ?? email }),
      ...(root.given_name !== undefined && { given_name: root.given_name }),
      ...(root.family_name !== undefined && { family_name: root.family_name }),
      ...(root.nickname !== undefined && root.nickname !== null && { nickname: root.nickname }),
      ...(root.picture !== undefined && root.picture !== null && { picture: root.picture }),
      ...(root.phone_number !== undefined && { phone_number: root.phone_number }),
      ...(root.username !== undefined && { username: root.username, username_lower: root.username?.toLowerCase() ?? null }),
    };
    if (existing) {
      await stores.users.update(tenant.id, userId, { ...fields, blocked: blocked ? 1 : 0, app_metadata: metadata('app_metadata'), user_metadata: metadata('user_metadata'), updated_at: now });
    } else {
      await stores.users.insert({
        ...baseUserRow(tenant.id, connection.id, email, now),
        ...fields,
        user_id: userId,
        // Google verified the Workspace's addresses; a login through the connection says so too.
        email_verified: 1,
        blocked: blocked ? 1 : 0,
        app_metadata: mapped.app_metadata,
        user_metadata: mapped.user_metadata,
      });
    }
    await stores.directoryProvisioning.putUser({
      tenant_id: tenant.id,
      connection_id: connection.id,
      user_id: userId,
      directory_id: directoryId,
      synchronization_id: target.syncId,
      blocked_by_directory: blockedByDirectory ? 1 : 0,
    });
    const written = await stores.users.get(tenant.id, userId);
    if (written) await recordEvent(stores, tenant, existing ? 'user.updated' : 'user.created', { ...userFromRow(written, connection.name) }, ctx.now());
    outcome = { created: !existing, blocked: blocked && !wasBlocked, ended: blocked && !wasBlocked };
  }).catch((error: unknown) => {
    if (!isUniqueViolation(error)) throw error;
    outcome = 'failed';
  });
  if (outcome === 'failed') return outcome;
  const done: { created: boolean; blocked: boolean; ended: boolean } = outcome;
  if (done.ended) await endUserSessions(ctx, tenant.id, userId, 'session-revoked', { revoke: true });
  return { created: done.created, blocked: done.blocked };
}

/** Blocks the users this connection's directory wrote before and this complete run did not see. */
async function blockAbsent(ctx: DirectorySyncContext, target: Target): Promise<number> {
  const { tenant, connection, syncId } = target;
  let blocked = 0;
  for (let after: string | undefined; ; ) {
    const absent = await ctx.stores.directoryProvisioning.usersNotSeen(tenant.id, connection.id, syncId, { ...(after !== undefined && { after }), limit: ABSENT_PAGE });
    for (const record of absent) {
      const ended = await ctx.unitOfWork.transaction(async (stores: Stores) => {
        const user = await stores.users.get(tenant.id, record.user_id);
        if (!user || user.blocked === 1) return false;
        await stores.users.update(tenant.id, record.user_id, { blocked: 1, updated_at: isoAt(ctx.now()) });
        await stores.directoryProvisioning.putUser({ ...record, blocked_by_directory: 1 });
        const written = await stores.users.get(tenant.id, record.user_id);
        if (written) await recordEvent(stores, tenant, 'user.updated', { ...userFromRow(written, connection.name) }, ctx.now());
        return true;
      });
      if (ended) {
        blocked++;
        await endUserSessions(ctx, tenant.id, record.user_id, 'session-revoked', { revoke: true });
      }
    }
    if (absent.length < ABSENT_PAGE) return blocked;
    after = absent.at(-1)!.user_id;
  }
}
