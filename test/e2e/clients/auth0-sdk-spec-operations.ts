/**
 * Drives the official `auth0` SDK through the four Management API operations of
 * the specification and the resources they stand on, printing one JSON result
 * per step; test/e2e/auth0-sdk-spec-operations.test.ts runs it as its own
 * process with NODE_EXTRA_CA_CERTS so TLS verification is real.
 *
 * Usage: node --import tsx auth0-sdk-spec-operations.ts '{"domain":…,"clientId":…,"clientSecret":…,"summaryToken":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
  /** A Management API token with only read:client_summary. */
  summaryToken: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

type Listed = { client_id?: string; name?: string; app_type?: string; [k: string]: unknown };

async function all(page: AsyncIterable<Listed>): Promise<Listed[]> {
  const items: Listed[] = [];
  for await (const item of page) items.push(item);
  return items;
}

const APP_TYPES = ['spa', 'native', 'regular_web', 'non_interactive'] as const;

// 120 clients of mixed app types.
const created: { client_id: string; app_type: string; is_first_party: boolean }[] = [];
for (let i = 0; i < 120; i++) {
  const app_type = APP_TYPES[i % 4]!;
  const client = await management.clients.create({
    name: `E2E client ${i}`,
    app_type,
    is_first_party: i % 3 === 0,
    ...(app_type === 'non_interactive' && { token_endpoint_auth_method: 'client_secret_post', grant_types: ['client_credentials'] }),
  });
  created.push({ client_id: client.client_id!, app_type, is_first_party: i % 3 === 0 });
}
out.created = created;

// clients.list() pages through all of them (page, per_page, include_totals=true, as the SDK sends).
out.listAll = (await all(await management.clients.list({ per_page: 25 }))).map((c) => c.client_id);

// Each filter.
out.filterAppType = (await all(await management.clients.list({ app_type: 'spa,native', per_page: 100 }))).map((c) => [c.client_id, c.app_type]);
out.filterFirstParty = (await all(await management.clients.list({ is_first_party: true, per_page: 100 }))).map((c) => [c.client_id, c.is_first_party]);
out.filterGlobal = (await all(await management.clients.list({ is_global: true }))).map((c) => [c.name, c.global]);

// Field selection both ways.
out.fieldsInclude = (await management.clients.list({ fields: 'client_id,name', include_fields: true, per_page: 5 })).data.map((c) => Object.keys(c).sort());
out.fieldsExclude = (await management.clients.list({ fields: 'callbacks,client_secret,jwt_configuration', include_fields: false, per_page: 5 })).data.map((c) =>
  ['callbacks', 'client_secret', 'jwt_configuration', 'name'].filter((k) => k in c),
);

// Checkpoint pages via from/take, with clients inserted and deleted between pages.
const seen: string[] = [];
const deleted: string[] = [];
const inserted: string[] = [];
let from: string | undefined;
for (let pageNo = 0; pageNo < 100; pageNo++) {
  const page = await management.clients.list({}, { queryParams: { take: 20, ...(from !== undefined && { from }) } });
  const response = page.response as unknown as { clients: Listed[]; next?: string };
  seen.push(...response.clients.map((c) => c.client_id!));
  if (pageNo === 1) {
    const victim = created.map((c) => c.client_id).filter((id) => !seen.includes(id)).at(-1)!;
    await management.clients.delete(victim);
    deleted.push(victim);
    const fresh = await management.clients.create({ name: 'E2E inserted between pages', app_type: 'spa' });
    inserted.push(fresh.client_id!);
  }
  if (response.next === undefined) {
    out.lastPageHasNextKey = 'next' in response;
    break;
  }
  from = response.next;
}
out.checkpoint = { seen, deleted, inserted };

// q with an organization: a client grant linked to an organization.
const api = await management.resourceServers.create({ identifier: 'https://e2e-orgs.example.com/', scopes: [{ value: 'read:x' }] });
const org = await management.organizations.create({ name: 'e2e-org', display_name: 'E2E org' });
const m2m = created.find((c) => c.app_type === 'non_interactive')!;
const grant = await management.clientGrants.create({ client_id: m2m.client_id, audience: api.identifier!, scope: ['read:x'], organization_usage: 'allow' });
await management.organizations.clientGrants.create(org.id!, { grant_id: grant.id! });
const q = await management.clients.list({}, { queryParams: { q: `client_grant.organization_id:${org.id}`, take: 50 } });
out.qOrganization = { expected: m2m.client_id, got: (q.response as unknown as { clients: Listed[] }).clients.map((c) => c.client_id) };

// A read:client_summary token sees only the four summary fields.
const summary = new ManagementClient({ domain: input.domain, token: input.summaryToken, maxRetries: 0 });
out.summaryKeys = [...new Set((await summary.clients.list({ per_page: 50 })).data.flatMap((c) => Object.keys(c)))].sort();

// groups.roles.delete removes roles.
const roleA = await management.roles.create({ name: 'e2e-role-a', description: 'A' });
const roleB = await management.roles.create({ name: 'e2e-role-b', description: 'B' });
const groupRes = await fetch(`https://${input.domain}/api/v2/groups`, {
  method: 'POST',
  headers: { authorization: `Bearer ${await tokenOf(management)}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'e2e-group' }),
});
const group = (await groupRes.json()) as { id: string };
await management.groups.roles.create(group.id, { roles: [roleA.id!, roleB.id!] });
const before = (await management.groups.roles.list(group.id)).data.map((r) => r.id);
await management.groups.roles.delete(group.id, { roles: [roleA.id!] });
const after = (await management.groups.roles.list(group.id)).data.map((r) => r.id);
out.groupRoles = { roleA: roleA.id, roleB: roleB.id, before, after };

// Push-notification providers round-trip; the p12 and the AWS secret never come back.
// Bytes shaped like a PKCS#12 file (a DER SEQUENCE); Gatehouse checks the shape, APNs would check the rest.
const p12Body = Buffer.alloc(1200, 7);
const p12 = Buffer.concat([Buffer.from([0x30, 0x82, p12Body.length >> 8, p12Body.length & 0xff]), p12Body]).toString('base64');
out.apnsPatch = await management.guardian.factors.pushNotification.updateApnsProvider({ sandbox: true, bundle_id: 'com.example.e2e', p12 });
out.apnsGet = await management.guardian.factors.pushNotification.getApnsProvider();
out.snsPatch = await management.guardian.factors.pushNotification.updateSnsProvider({
  aws_access_key_id: 'AKIAE2E',
  aws_secret_access_key: 'e2e-secret-access-key',
  aws_region: 'eu-west-1',
  sns_apns_platform_application_arn: 'arn:aws:sns:eu-west-1:1:app/APNS/e2e',
  sns_gcm_platform_application_arn: 'arn:aws:sns:eu-west-1:1:app/GCM/e2e',
});
out.snsGet = await management.guardian.factors.pushNotification.getSnsProvider();
out.p12 = p12;

process.stdout.write(JSON.stringify(out));

/** The SDK's own cached token, for the one call it has no method for (Gatehouse's POST /groups). */
async function tokenOf(client: ManagementClient): Promise<string> {
  const res = await fetch(`https://${input.domain}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: input.clientId, client_secret: input.clientSecret, audience: `https://${input.domain}/api/v2/` }),
  });
  void client;
  return ((await res.json()) as { access_token: string }).access_token;
}
