/**
 * Drives the official `auth0` SDK through a user's authentication methods
 * (GET /users/{id}/authentication-methods, DELETE …/{method_id}), printing
 * one JSON result; test/e2e/browser-webauthn.test.ts runs it as its own
 * process with NODE_EXTRA_CA_CERTS so TLS verification is real.
 *
 * Usage: node --import tsx auth0-sdk-authentication-methods.ts '{"domain":…,"clientId":…,"clientSecret":…,"userId":…,"type":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
  userId: string;
  /** The type of the methods to delete. */
  type: string;
}

type Method = { id: string; type: string; key_id?: string; confirmed?: boolean };

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const list = async () => {
  const methods: Method[] = [];
  for await (const method of await management.users.authenticationMethods.list(input.userId)) methods.push(method as Method);
  return methods;
};
const before = await list();
for (const method of before.filter((m) => m.type === input.type)) await management.users.authenticationMethods.delete(input.userId, method.id);
process.stdout.write(JSON.stringify({ before, after: await list() }));
