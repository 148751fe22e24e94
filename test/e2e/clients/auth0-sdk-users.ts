/**
 * Drives the official `auth0` SDK (v7) through user search: `users.list`
 * with `q` and `search_engine: 'v3'` (v4's `users.getAll`), its pages followed
 * to the end, `sort` and `fields`, a refused query,
 * `users.listUsersByEmail`, a users import uploaded with
 * `jobs.usersImports.create` (multipart) and followed with `jobs.get` and
 * `jobs.errors.get`, and `tickets.changePassword`. Prints one JSON result;
 * test/e2e/auth0-sdk-users.test.ts runs it with NODE_EXTRA_CA_CERTS.
 *
 * Usage: node --import tsx auth0-sdk-users.ts '{"domain":…,"clientId":…,"clientSecret":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

const CONNECTION = 'Username-Password-Authentication';
await management.connections.create({ name: CONNECTION, strategy: 'auth0' });
const created: Record<string, string> = {};
for (const [email, plan] of [['ann@example.com', 'gold'], ['Anna@Example.com', 'silver'], ['bea@example.com', 'gold'], ['cid@example.com', 'gold'], ['dee@example.com', 'free']] as const) {
  const user = await management.users.create({ connection: CONNECTION, email, password: 'Correct-Horse-7', app_metadata: { plan } });
  created[email] = user.user_id!;
}
out.created = created;

const page = await management.users.list({ q: 'email:ann*', search_engine: 'v3', sort: 'email:1' });
out.prefix = page.data.map((u) => u.email);

const gold: string[] = [];
for await (const user of await management.users.list({ q: 'app_metadata.plan:gold AND NOT email:"bea@example.com"', search_engine: 'v3', per_page: 1, sort: 'email:-1' })) {
  gold.push(user.email!);
}
out.goldPaged = gold;

const totals = await management.users.list({ q: `identities.connection:"${CONNECTION}"`, search_engine: 'v3', include_totals: true, per_page: 2, fields: 'user_id,email' });
out.totals = { total: (totals.response as { total?: number }).total, fields: totals.data.map((u) => Object.keys(u).sort()) };

try {
  await management.users.list({ q: 'email:(unclosed', search_engine: 'v3' });
  out.refused = 'accepted';
} catch (error) {
  const e = error as { statusCode?: number; body?: unknown };
  out.refused = { statusCode: e.statusCode, body: e.body };
}

const byEmail = await management.users.listUsersByEmail({ email: 'anna@example.com' });
out.byEmail = byEmail.map((u) => u.user_id);

// Jobs: an import uploaded by the SDK (multipart), followed to completion, and its errors.
const connectionId = (await management.connections.list({ name: CONNECTION })).data[0]!.id!;
const file = JSON.stringify([{ email: 'sdk-import@example.com', password_hash: '$2b$04$C6UzMDM.H6dfI/f/IKxGhu7Qcno2V26Hoa7LQ4vnSXZjIjGkWTTe6' }, { email: 'bad' }]);
const importJob = await management.jobs.usersImports.create({ users: new Blob([file], { type: 'application/json' }), connection_id: connectionId, upsert: false, send_completion_email: false });
let job = await management.jobs.get(importJob.id!);
for (let i = 0; i < 100 && job.status !== 'completed' && job.status !== 'failed'; i++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  job = await management.jobs.get(importJob.id!);
}
out.importJob = { created: { type: importJob.type, status: importJob.status, connection_id: importJob.connection_id }, done: { status: job.status, summary: job.summary } };
const errors = await management.jobs.errors.get(importJob.id!);
out.importErrors = Array.isArray(errors) ? errors.map((e) => ({ email: (e.user as { email?: string } | undefined)?.email, codes: (e.errors ?? []).map((x) => x.code) })) : errors;

// Tickets: a password change link through the hosted page.
const ticket = await management.tickets.changePassword({ user_id: created['ann@example.com']!, result_url: 'https://app.example/done', ttl_sec: 600 });
out.ticket = ticket.ticket;

process.stdout.write(JSON.stringify(out));
