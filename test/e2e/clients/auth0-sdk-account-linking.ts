/**
 * Drives account linking with the official `auth0` SDK (v7):
 * `users.identities.link` with `provider` + `user_id` (a machine token with
 * `update:users`) and with `link_with` (an end user's own token with
 * `update:current_user_identities`, the other account's ID token from the
 * SDK's password-realm login), `users.identities.delete`, and the logins
 * through the legacy AuthenticationClient's `oauth.passwordGrant` whose
 * `sub` tells which user logged in. Prints one JSON result;
 * test/e2e/auth0-sdk-account-linking.test.ts runs it with NODE_EXTRA_CA_CERTS.
 *
 * Usage: node --import tsx auth0-sdk-account-linking.ts '{"domain":…,"clientId":…,"clientSecret":…}'
 */
import { ManagementClient } from 'auth0';
import { AuthenticationClient } from 'auth0/legacy';
import { decodeJwt } from 'jose';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

const MAIN = 'linking-main';
const SECOND = 'linking-second';
const PASSWORD = 'Correct-Horse-Linking-7';

const app = await management.clients.create({
  name: 'Linking app',
  app_type: 'regular_web',
  token_endpoint_auth_method: 'client_secret_post',
  grant_types: ['password', 'http://auth0.com/oauth/grant-type/password-realm'],
});
for (const name of [MAIN, SECOND]) await management.connections.create({ name, strategy: 'auth0', enabled_clients: [app.client_id!] });
const auth = new AuthenticationClient({ domain: input.domain, clientId: app.client_id!, clientSecret: app.client_secret! });

/** The password-realm login's tokens, or the refusal's status. */
async function login(email: string, realm: string, extra: { audience?: string; scope?: string } = {}) {
  try {
    const { data } = await auth.oauth.passwordGrant({ username: email, password: PASSWORD, realm, scope: extra.scope ?? 'openid', ...(extra.audience && { audience: extra.audience }) });
    return { sub: decodeJwt(data.id_token!).sub, idToken: data.id_token!, accessToken: data.access_token };
  } catch (error) {
    return { refused: (error as { statusCode?: number }).statusCode };
  }
}

async function refusal(call: () => Promise<unknown>) {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    const e = error as { statusCode?: number; body?: unknown };
    return { statusCode: e.statusCode, body: e.body };
  }
}

const user = async (connection: string, email: string) => (await management.users.create({ connection, email, password: PASSWORD })).user_id!;
const primary = await user(MAIN, 'primary@example.com');
const secondary = await user(SECOND, 'secondary@example.com');
out.ids = { primary, secondary };
const part = (id: string) => id.slice(id.indexOf('|') + 1);

// With update:users, the secondary named by provider and user_id.
out.subBefore = (await login('secondary@example.com', SECOND)).sub;
out.linked = await management.users.identities.link(primary, { provider: 'auth0', user_id: part(secondary) });
out.primaryIdentities = (await management.users.get(primary)).identities;
out.secondaryGet = await refusal(() => management.users.get(secondary));
out.subLinked = (await login('secondary@example.com', SECOND)).sub;
out.linkedAgain = await refusal(() => management.users.identities.link(primary, { provider: 'auth0', user_id: part(secondary) }));
out.linkedToItself = await refusal(() => management.users.identities.link(primary, { provider: 'auth0', user_id: part(primary) }));
out.unlinked = await management.users.identities.delete(primary, 'auth0', part(secondary));
out.subUnlinked = (await login('secondary@example.com', SECOND)).sub;
out.mainIdentity = await refusal(() => management.users.identities.delete(primary, 'auth0', part(primary)));

// An end user links the other account it can log in to: its own token, the other's ID token.
const own = await login('primary@example.com', MAIN, { audience: `https://${input.domain}/api/v2/`, scope: 'openid update:current_user_identities' });
const asUser = new ManagementClient({ domain: input.domain, token: own.accessToken!, maxRetries: 0 });
const other = await login('secondary@example.com', SECOND);
out.badToken = await refusal(() => asUser.users.identities.link(primary, { link_with: `${other.idToken!.slice(0, -4)}AAAA` }));
out.linkedByUser = await asUser.users.identities.link(primary, { link_with: other.idToken! });
out.subLinkedByUser = (await login('secondary@example.com', SECOND)).sub;

process.stdout.write(JSON.stringify(out));
