/**
 * Drives the official `auth0` SDK (v7) through user search: `users.list`
 * with `q` and `search_engine: 'v3'` (v4's `users.getAll`), its pages followed
 * to the end, `sort` and `fields`, a refused query, and
 * `users.listUsersByEmail`. Prints one JSON result;
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

process.stdout.write(JSON.stringify(out));
