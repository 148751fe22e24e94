/**
 * Drives the official `auth0` SDK through tenant logs and log streams,
 * printing one JSON result; test/e2e/auth0-sdk-logs.test.ts runs it as its
 * own process with NODE_EXTRA_CA_CERTS so TLS verification is real.
 *
 * Usage: node --import tsx auth0-sdk-logs.ts '{"domain":…,"clientId":…,"clientSecret":…,"userId":…,"userName":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
  userId: string;
  userName: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

type Log = { log_id?: string; type?: string; description?: string | null; client_id?: string; user_id?: string };

// Three Management API operations (sapi), the SDK's own token exchange (seccft) before them.
for (const name of ['e2e-a', 'e2e-b', 'e2e-c']) await management.roles.create({ name });

// The events are written in batches off the request path (every 250 ms): poll for them. The
// in-process test (test/management/logs.test.ts) holds the one-second bound; here, across two
// processes on a machine other test runs share, up to three seconds.
const deadline = Date.now() + 3000;
let sapi: Log[] = [];
for (;;) {
  sapi = [];
  // per_page 2: the SDK pages through them.
  for await (const log of await management.logs.list({ search: 'type:sapi AND description:"POST /api/v2/roles"', per_page: 2 })) sapi.push(log as Log);
  if (sapi.length >= 3 || Date.now() > deadline) break;
  out.polls = ((out.polls as number | undefined) ?? 0) + 1;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
out.sapi = sapi;
out.firstPage = (await management.logs.list({ search: 'type:sapi', per_page: 2 })).data.length;
out.waitedMs = Date.now() - deadline + 3000;
const exchanges = await management.logs.list({ search: 'type:seccft', per_page: 10 });
out.seccft = exchanges.data as Log[];
out.one = (await management.logs.get(sapi[0]!.log_id!)) as unknown;
// The logins the test made before this run, found by the name tried (written off the request path: poll).
const loginsDeadline = Date.now() + 3000;
for (;;) {
  const found = await management.logs.list({ search: `user_name:"${input.userName}"`, per_page: 10 });
  out.byUserName = found.data as Log[];
  if (found.data.length >= 2 || Date.now() > loginsDeadline) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
const userLogs = await management.users.logs.list(input.userId, { per_page: 10 });
out.userLogs = userLogs.data as Log[];

const created = await management.logStreams.create({
  name: 'E2E webhook',
  type: 'http',
  sink: { httpEndpoint: 'https://logs.example.com/in', httpContentFormat: 'JSONARRAY', httpAuthorization: 'Bearer e2e-stream-secret' },
  filters: [{ type: 'category', name: 'auth.login.fail' }],
} as Parameters<typeof management.logStreams.create>[0]);
out.created = created;
const id = (created as { id: string }).id;
out.listed = await management.logStreams.list();
out.got = await management.logStreams.get(id);
out.updated = await management.logStreams.update(id, { status: 'paused' });
await management.logStreams.delete(id);
try {
  await management.logStreams.get(id);
  out.afterDelete = 'found';
} catch (error) {
  out.afterDelete = (error as { statusCode?: number }).statusCode;
}
try {
  await management.logStreams.create({ type: 'datadog', sink: { datadogApiKey: 'k', datadogRegion: 'us' } } as Parameters<typeof management.logStreams.create>[0]);
  out.datadog = 'created';
} catch (error) {
  out.datadog = (error as { statusCode?: number }).statusCode;
}

process.stdout.write(JSON.stringify(out));
