/**
 * Drives the official `auth0` SDK through a connection's SCIM configuration
 * and tokens, printing one JSON result; test/e2e/scim-provisioning.test.ts
 * runs it as its own process with NODE_EXTRA_CA_CERTS so TLS verification is real.
 *
 * Usage: node --import tsx auth0-sdk-scim.ts '{"domain":…,"clientId":…,"clientSecret":…,"connectionId":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
  connectionId: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const scim = management.connections.scimConfiguration;
const out: Record<string, unknown> = {};

out.created = await scim.create(input.connectionId, {});
out.defaultMapping = await scim.getDefaultMapping(input.connectionId);
const created = out.created as { mapping: { auth0: string; scim: string }[]; user_id_attribute: string };
// The mapping edited: the SCIM `title` into user_metadata.
out.updated = await scim.update(input.connectionId, { user_id_attribute: created.user_id_attribute, mapping: [...created.mapping, { auth0: 'user_metadata.job_title', scim: 'title' }] });
out.read = await scim.get(input.connectionId);
const spare = await scim.tokens.create(input.connectionId, { scopes: ['get:users'] });
out.token = await scim.tokens.create(input.connectionId, { scopes: ['get:users', 'post:users', 'put:users', 'patch:users', 'delete:users'], token_lifetime: 86_400 });
try {
  await scim.tokens.create(input.connectionId, {});
  out.third = 'created';
} catch (error) {
  out.third = (error as { statusCode?: number }).statusCode;
}
await scim.tokens.delete(input.connectionId, (spare as { token_id: string }).token_id);
out.tokens = await scim.tokens.get(input.connectionId);
process.stdout.write(JSON.stringify(out));
