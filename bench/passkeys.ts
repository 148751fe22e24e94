/**
 * Passkey logins (`npm run bench:passkeys`): complete logins per second with
 * a passkey beside password (Argon2id) logins through the same hosted login
 * page, in the same run, against the same server.
 *
 * Gatehouse (bin/gatehouse.cjs over HTTPS, temporary data directory, SQLite)
 * runs with a database connection with passkeys on (the button; no
 * progressive enrolment, so a password login goes straight to the
 * application). Each of BENCH_CONNECTIONS workers is a scripted browser with
 * its own software authenticator (test/helpers/webauthn-authenticator.ts:
 * node's crypto, ES256 on P-256, the user verified): in the preflight it
 * signs up with its email and a passkey alone (the signup pages), and a
 * password user is made for it through the Management API. Then, for
 * BENCH_ROUNDS rounds of BENCH_DURATION seconds, the two kinds of login
 * alternate, each worker logging in again and again from `/authorize` to
 * the application's callback and redeeming the code at /oauth/token:
 *
 *   - passkey: GET /authorize → the login page (its passkey form: the
 *     ceremony's options and sealed state) → the authenticator signs the
 *     challenge → POST /login/passkey → 302 with the code → token;
 *   - password: GET /authorize → the login page → POST /login → 302 with the
 *     code → token.
 *
 * The table shows logins per second and Gatehouse's CPU time per login (from
 * /proc/{pid}/stat, utime + stime), the medians of the rounds, and their
 * ratios in the same run. A passkey login verifies one ECDSA signature where
 * a password login computes one Argon2id hash (19 MiB, t=2).
 *
 * Settings: BENCH_DURATION (5), BENCH_ROUNDS (2), BENCH_CONNECTIONS (4).
 */
import fs from 'node:fs';
import os from 'node:os';
import { loginRounds, pinServer } from './login-rounds.js';
import { startServerProcess } from '../test/helpers/server-process.js';
import { SoftwareAuthenticator } from '../test/helpers/webauthn-authenticator.js';
import { FederationBrowser } from '../test/e2e/support/federation.js';
import { httpsRequest, managementToken, type HttpResult } from '../test/e2e/support/https.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const APP = 'https://portal.example';
const CALLBACK = `${APP}/callback`;
const PASSWORD = 'Correct-Horse-Battery-9';
const CONNECTION = 'Username-Password-Authentication';
const PASSKEY_FORM = '<form method="post" data-webauthn=';

const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The page's WebAuthn form alone (the page as the browser would submit that form), and its ceremony's options. */
function passkeyForm(page: HttpResult): { form: HttpResult; options: { challenge: string; rp?: { id: string }; rpId?: string } } {
  const at = page.text.indexOf(PASSKEY_FORM);
  if (at < 0) throw new Error(`no passkey form in the page (${page.status})`);
  const form = { ...page, text: page.text.slice(at) };
  return { form, options: JSON.parse(unescape(/data-webauthn="([^"]*)"/.exec(form.text)![1]!)) };
}

async function main(): Promise<void> {
  const server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_AUTHENTICATION: '100000/100000' } });
  const pinned = pinServer(server.child.pid!);
  try {
    const ca = fs.readFileSync(server.certFile);
    const origin = new URL(server.baseUrl).origin;
    const rpId = new URL(server.baseUrl).hostname;
    const token = await managementToken(server);
    const api = async (method: string, apiPath: string, body: unknown) => {
      const res = await httpsRequest(`${server.baseUrl}/api/v2${apiPath}`, { ca, method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${method} ${apiPath}: ${res.status} ${res.text}`);
      return res.json<Record<string, string>>();
    };
    const client = await api('POST', '/clients', { name: 'Portal', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] });
    await api('POST', '/connections', {
      name: CONNECTION,
      strategy: 'auth0',
      enabled_clients: [client.client_id],
      options: { authentication_methods: { password: { enabled: true }, passkey: { enabled: true } }, passkey_options: { challenge_ui: 'button', progressive_enrollment_enabled: false } },
    });
    for (let i = 0; i < CONNECTIONS; i++) await api('POST', '/users', { connection: CONNECTION, email: `user${i}@bench.example`, password: PASSWORD });

    const authorize = (extra: Record<string, string> = {}) =>
      `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id!, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', state: 's', ...extra })}`;
    const redeem = async (arrived: URL | undefined) => {
      const code = arrived?.searchParams.get('code');
      if (!code) throw new Error(`no code: ${arrived?.href}`);
      const res = await httpsRequest(`${server.baseUrl}/oauth/token`, { ca, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: CALLBACK }) });
      if (res.status !== 200) throw new Error(`token: ${res.status} ${res.text}`);
    };

    // Preflight: each worker signs up with a passkey alone (its authenticator keeps it) and logs in once each way.
    const keys: { key: SoftwareAuthenticator; userId: string }[] = [];
    for (let worker = 0; worker < CONNECTIONS; worker++) {
      const b = new FederationBrowser(ca, APP);
      const signup = await b.navigate(authorize({ screen_hint: 'signup' }));
      const create = await b.submit(signup.last!, signup.urls.at(-1)!, { email: `passkey${worker}@bench.example` });
      const { form, options } = passkeyForm(create.last!);
      const key = new SoftwareAuthenticator();
      const done = await b.submit(form, create.urls.at(-1)!, { credential: JSON.stringify(key.register({ challenge: options.challenge, rpId: options.rp!.id, origin })) });
      await redeem(done.arrived);
      keys.push({ key, userId: Buffer.from((JSON.parse(unescape(/data-webauthn="([^"]*)"/.exec(form.text)![1]!)) as { user: { id: string } }).user.id, 'base64url').toString('utf8') });
    }
    const logins = {
      passkey: async (worker: number) => {
        const b = new FederationBrowser(ca, APP);
        const page = await b.navigate(authorize());
        const { form, options } = passkeyForm(page.last!);
        const { key, userId } = keys[worker]!;
        const done = await b.submit(form, page.urls.at(-1)!, { credential: JSON.stringify(key.assert({ challenge: options.challenge, rpId: options.rpId ?? rpId, origin }, { userHandle: userId })) });
        await redeem(done.arrived);
      },
      password: async (worker: number) => {
        const b = new FederationBrowser(ca, APP);
        const page = await b.navigate(authorize());
        const done = await b.submit(page.last!, page.urls.at(-1)!, { username: `user${worker}@bench.example`, password: PASSWORD });
        await redeem(done.arrived);
      },
    };
    await logins.passkey(0);
    await logins.password(0);

    const { passkey, password } = await loginRounds(server.child.pid!, logins, { rounds: ROUNDS, durationS: DURATION_S, connections: CONNECTIONS });
    console.log(`\nPasskey and password logins (${ROUNDS} rounds of ${DURATION_S} s, ${CONNECTIONS} browsers; ${pinned}; load average ${os.loadavg()[0]!.toFixed(1)})\n`);
    console.log('| Login | logins/s (median) | Gatehouse CPU ms/login (median) |');
    console.log('|---|---:|---:|');
    console.log(`| passkey (hosted login page, ES256 assertion) | ${passkey.rate.toFixed(1)} | ${passkey.cpu.toFixed(2)} |`);
    console.log(`| password (hosted login page, Argon2id) | ${password.rate.toFixed(1)} | ${password.cpu.toFixed(2)} |`);
    console.log(`\nratio passkey/password: ${(passkey.rate / password.rate).toFixed(2)} in logins/s; ${(passkey.cpu / password.cpu).toFixed(2)} in Gatehouse CPU per login`);
  } finally {
    await server.stop();
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
