/**
 * The admin console (console/, built into dist/console/ by `npm run build`)
 * in a real browser (Debian's Chromium through playwright-core,
 * ./support/chromium.ts) against the built server over HTTPS, served at
 * https://{domain}/admin/ under its Content-Security-Policy:
 *
 * - an operator (a user whose role holds the Management API's scopes) logs
 *   in through the hosted login page (auth0-spa-js, code + PKCE) and, in the
 *   console's pages, creates an application and edits its callbacks, reveals
 *   its secret, creates an API and adds a scope, creates a user and gives it a
 *   role and blocks it, removes a role from a group, sets the Amazon SNS push
 *   provider, and changes the primary colour after its live preview;
 *   each result is read back through the Management API with the admin
 *   client's token, not from the page;
 * - the other sections' operations too: a secret rotated, a role's
 *   permission, a connection enabled for an application, an organization's
 *   member, a factor, direct APNs (a file that is no PKCS#12 refused with
 *   the API's message), tenant settings, 51 users found with `q` over two
 *   pages, a password-reset link, a user's authentication methods listed and
 *   one removed, a log event found with `q` and opened;
 * - axe-core reports no WCAG 2.2 AA violation on any section's page, in
 *   light and dark mode; the browser reports no CSP violation (no inline
 *   script or style);
 * - a user who is no operator is refused: the refusal screen shows the
 *   error, and its "Log out" ends the session (the login page comes back);
 * - an operator whose role lacks a scope sees the console's "not allowed"
 *   message when the operation answers 403, and nothing is created; once
 *   blocked, the next call answers 401 and the console says to log in again.
 *
 * Every step's page is saved under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { axeViolations } from './support/axe.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, type ManagementApi, type Scenario } from './support/chromium.js';
import { cleanUp, httpsRequest, managementToken } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const CONNECTION = 'operators';

const skip = chromiumSkipReason();
let server: ServerProcess;
let management: ManagementApi;
let browser: Browser | undefined;

const suffix = () => randomBytes(4).toString('hex');
const newEmail = (who: string) => `${who}-${suffix()}@example.com`;

interface Role {
  id: string;
  name: string;
}

/** The console's address on the tenant's host. */
const consoleUrl = (hash = '') => `${server.baseUrl}/admin/${hash}`;

async function createUser(email: string): Promise<string> {
  return (await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD })).user_id as string;
}

async function createRole(name: string): Promise<Role> {
  return (await management('POST', '/roles', { name: `${name} ${suffix()}` })) as unknown as Role;
}

/** A role holding `scopes` of the tenant's Management API (100 permissions per request, the API's limit). */
async function operatorRole(name: string, scopes: string[]): Promise<Role> {
  const role = await createRole(name);
  const audience = `https://${server.domain}/api/v2/`;
  for (let i = 0; i < scopes.length; i += 100) {
    const permissions = scopes.slice(i, i + 100).map((permission_name) => ({ resource_server_identifier: audience, permission_name }));
    await management('POST', `/roles/${role.id}/permissions`, { permissions });
  }
  return role;
}

/** Every scope of the tenant's Management API but the `*:current_user*` ones (a user acting on itself). */
async function managementScopes(): Promise<string[]> {
  const servers = (await management('GET', '/resource-servers')) as unknown as { identifier: string; scopes?: { value: string }[] }[];
  const api = servers.find((s) => s.identifier === `https://${server.domain}/api/v2/`);
  assert.ok(api, 'the Management API is among the resource servers');
  return (api.scopes ?? []).map((s) => s.value).filter((s) => !s.includes('current_user'));
}

/** DELETE /connections/{id} (without the JSON content type of `management`, which a body-less DELETE must not carry). */
async function deleteConnection(id: string): Promise<void> {
  const res = await httpsRequest(`${server.baseUrl}/api/v2/connections/${id}`, {
    ca: fs.readFileSync(server.certFile),
    method: 'DELETE',
    headers: { authorization: `Bearer ${await managementToken(server)}` },
  });
  assert.equal(res.status, 204, res.text);
}

/** A user of the operators' connection holding `role`. */
async function operator(who: string, role: Role): Promise<string> {
  const email = newEmail(who);
  const userId = await createUser(email);
  await management('POST', `/users/${encodeURIComponent(userId)}/roles`, { roles: [role.id] });
  return email;
}

before(async () => {
  if (skip) return;
  // The set-up makes a page and one more of users at once, beyond the Management API's default bucket (50/16).
  server = await startServerProcess({ env: { GATEHOUSE_RATE_LIMIT_MANAGEMENT: '500/100' } });
  browser = await launchChromium();
  management = await managementApi(server);
  await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0' });
});

after(async () => {
  await browser?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** /admin/ → /authorize → the hosted login page: the credentials typed in, back on the console. */
async function logIn(scenario: Scenario, email: string): Promise<void> {
  const { page } = scenario;
  await page.goto(consoleUrl());
  await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname === '/login');
  await scenario.shot('hosted login page');
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await Promise.all([page.waitForURL((url) => url.pathname === '/admin/'), page.getByRole('button', { name: 'Log in' }).click()]);
}

/** The page's CSP violations as the browser reported them. */
const cspViolations = (scenario: Scenario) => scenario.log.filter((line) => /Content Security Policy/i.test(line));

/** The first-level heading of the page now shown. */
async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** A section through the left navigation. */
async function openSection(page: Page, link: string, title: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: link, exact: true }).click();
  await heading(page, title);
}

/** axe in light and dark mode, with a screenshot of each. */
async function checkAccessibility(scenario: Scenario, name: string): Promise<void> {
  const { page } = scenario;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await scenario.shot(`${name} ${colorScheme}`);
    const violations = await axeViolations(page);
    assert.deepEqual(violations, [], `${name} (${colorScheme}): ${JSON.stringify(violations, null, 1)}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Waits (at most about 15 s) until `check` holds, looking again every 150 ms.
 * A poll rather than page.waitForFunction: the console's CSP refuses the
 * `eval` that a string predicate needs.
 */
async function until(page: Page, what: string, check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await check()) return;
    await page.waitForTimeout(150);
  }
  assert.fail(`still not the case: ${what}`);
}

/** The id at the end of the hash route (`#/applications/<id>`). */
const routeId = (page: Page) => decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');

describe('admin console in Chromium', { skip }, () => {
  test('an operator logs in and creates an application, an API with a scope, a user with a role, removes a group role, sets the SNS push provider and the primary colour; axe finds nothing', async () => {
    const role = await operatorRole('Console operators', await managementScopes());
    const email = await operator('operator', role);
    const support = await createRole('Support');
    const groupRoles = [await createRole('Readers'), await createRole('Writers')];
    const group = (await management('POST', '/groups', { name: `Team ${suffix()}` })) as { id: string; name: string };
    await management('POST', `/groups/${group.id}/roles`, { roles: groupRoles.map((r) => r.id) });

    await inScenario(browser!, 'admin console operator', async (scenario) => {
      const { page } = scenario;
      await logIn(scenario, email);
      await heading(page, 'Applications');
      assert.equal(new URL(page.url()).search, '', 'the code and state are gone from the address');
      await page.getByText(email).first().waitFor();
      await checkAccessibility(scenario, 'applications');
      // At phone width the navigation goes above the page, and nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await checkAccessibility(scenario, 'applications phone');
      assert.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'the page fits 390px');
      await page.setViewportSize({ width: 1280, height: 900 });

      // An application: created, then its callbacks saved, then its secret revealed.
      const appName = `Billing ${suffix()}`;
      const createApp = page.getByRole('form', { name: 'Create an application' });
      await createApp.getByLabel('Name').fill(appName);
      await createApp.getByLabel('Application type').selectOption('regular_web');
      await createApp.getByRole('button', { name: 'Create application' }).click();
      await heading(page, appName);
      const clientId = routeId(page);
      const settings = page.getByRole('form', { name: 'Settings' });
      await settings.getByLabel('Allowed callback URLs').fill('https://billing.example.com/callback\nhttps://billing.example.com/other');
      await settings.getByRole('checkbox', { name: 'client_credentials' }).check();
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings.getByText('Settings saved.').waitFor();
      const client = await management('GET', `/clients/${clientId}`);
      assert.equal(client.name, appName);
      assert.equal(client.app_type, 'regular_web');
      assert.deepEqual(client.callbacks, ['https://billing.example.com/callback', 'https://billing.example.com/other']);
      assert.ok((client.grant_types as string[]).includes('client_credentials'));
      const secret = page.getByTestId('client-secret');
      assert.notEqual(await secret.textContent(), client.client_secret, 'the secret is hidden until revealed');
      await page.getByRole('button', { name: 'Reveal secret' }).click();
      assert.equal(await secret.textContent(), client.client_secret);
      assert.equal(await page.getByTestId('client-id').textContent(), clientId);
      await checkAccessibility(scenario, 'application');

      // An API with a scope.
      await openSection(page, 'APIs', 'APIs');
      await checkAccessibility(scenario, 'apis');
      const identifier = `https://reports-${suffix()}.example.com/`;
      const createApi = page.getByRole('form', { name: 'Create an API' });
      await createApi.getByLabel('Name').fill('Reports API');
      await createApi.getByLabel('Identifier').fill(identifier);
      await createApi.getByRole('button', { name: 'Create API' }).click();
      await heading(page, 'Reports API');
      const apiId = routeId(page);
      const addScope = page.getByRole('form', { name: 'Add a scope' });
      await addScope.getByLabel('Scope', { exact: true }).fill('read:reports');
      await addScope.getByLabel('Scope description').fill('Read reports');
      await addScope.getByRole('button', { name: 'Add scope' }).click();
      await page.getByRole('cell', { name: 'read:reports', exact: true }).waitFor();
      const resourceServer = await management('GET', `/resource-servers/${apiId}`);
      assert.equal(resourceServer.identifier, identifier);
      assert.deepEqual(resourceServer.scopes, [{ value: 'read:reports', description: 'Read reports' }]);
      await checkAccessibility(scenario, 'api');

      // A user in the database connection, then a role for it.
      await openSection(page, 'Users', 'Users');
      await checkAccessibility(scenario, 'users');
      const userEmail = newEmail('customer');
      const createUserForm = page.getByRole('form', { name: 'Create a user' });
      await createUserForm.getByLabel('Database connection').selectOption(CONNECTION);
      await createUserForm.getByLabel('Email').fill(userEmail);
      await createUserForm.getByLabel('Password').fill(PASSWORD);
      await createUserForm.getByRole('button', { name: 'Create user' }).click();
      await heading(page, userEmail);
      const userId = routeId(page);
      const assign = page.getByRole('form', { name: 'Assign a role' });
      await assign.getByLabel('Role to assign').selectOption(support.id);
      await assign.getByRole('button', { name: 'Assign role' }).click();
      await assign.getByText('Role assigned.').waitFor();
      const [created] = (await management('GET', `/users-by-email?email=${encodeURIComponent(userEmail)}`)) as unknown as { user_id: string; identities: { connection: string }[] }[];
      assert.equal(created?.user_id, userId);
      assert.equal(created?.identities[0]?.connection, CONNECTION);
      const userRoles = (await management('GET', `/users/${encodeURIComponent(userId)}/roles`)) as unknown as Role[];
      assert.deepEqual(userRoles.map((r) => r.id), [support.id]);
      await page.getByRole('button', { name: 'Block user' }).click();
      await page.getByRole('button', { name: 'Unblock user' }).waitFor();
      assert.equal(await page.getByTestId('user-status').textContent(), 'Blocked');
      assert.equal((await management('GET', `/users/${encodeURIComponent(userId)}`)).blocked, true);
      await checkAccessibility(scenario, 'user');

      // A role removed from a group.
      await openSection(page, 'Groups', 'Groups');
      await checkAccessibility(scenario, 'groups');
      await page.getByRole('link', { name: group.name, exact: true }).click();
      await heading(page, group.name);
      const [kept, removed] = groupRoles as [Role, Role];
      await page.getByRole('button', { name: `Remove role ${removed.name}` }).click();
      await page.getByRole('button', { name: `Remove role ${removed.name}` }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: `Remove role ${kept.name}` }).waitFor();
      const left = (await management('GET', `/groups/${group.id}/roles`)) as { roles: Role[] };
      assert.deepEqual(left.roles.map((r) => r.id), [kept.id]);
      await checkAccessibility(scenario, 'group');

      // The SNS push provider, then SNS selected.
      await openSection(page, 'Multi-factor auth', 'Multi-factor authentication');
      const sns = page.getByRole('form', { name: 'Amazon SNS' });
      await sns.getByLabel('AWS access key ID').fill('AKIAIOSFODNN7EXAMPLE');
      await sns.getByLabel('AWS secret access key').fill('wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
      await sns.getByLabel('AWS region').fill('eu-west-1');
      await sns.getByLabel('SNS APNs platform application ARN').fill('arn:aws:sns:eu-west-1:123456789012:app/APNS/gatehouse');
      await sns.getByLabel('SNS GCM platform application ARN').fill('arn:aws:sns:eu-west-1:123456789012:app/GCM/gatehouse');
      await sns.getByRole('button', { name: 'Save SNS settings' }).click();
      await sns.getByText('SNS settings saved.').waitFor();
      const provider = page.getByRole('form', { name: 'Provider in use' });
      await provider.getByLabel('Push provider').selectOption('sns');
      await provider.getByRole('button', { name: 'Use this provider' }).click();
      await provider.getByText('Provider saved.').waitFor();
      assert.deepEqual(await management('GET', '/guardian/factors/push-notification/providers/sns'), {
        aws_access_key_id: 'AKIAIOSFODNN7EXAMPLE',
        aws_region: 'eu-west-1',
        sns_apns_platform_application_arn: 'arn:aws:sns:eu-west-1:123456789012:app/APNS/gatehouse',
        sns_gcm_platform_application_arn: 'arn:aws:sns:eu-west-1:123456789012:app/GCM/gatehouse',
      });
      assert.deepEqual(await management('GET', '/guardian/factors/push-notification/selected-provider'), { provider: 'sns' });
      await checkAccessibility(scenario, 'mfa');

      // The remaining sections render and pass axe.
      for (const [link, title] of [
        ['Connections', 'Connections'],
        ['Roles', 'Roles'],
        ['Organizations', 'Organizations'],
        ['Tenant settings', 'Tenant settings'],
        ['Branding', 'Branding'],
        ['Logs', 'Logs'],
      ] as const) {
        await openSection(page, link, title);
        await page.getByText('Loading…', { exact: true }).first().waitFor({ state: 'detached' });
        await checkAccessibility(scenario, link);
      }

      // Branding: the preview follows the colour typed, then the colour is saved.
      const preview = page.waitForResponse((response) => response.url().includes('/admin/preview/login?') && response.url().includes('primary=%230a7d33'));
      const look = page.getByRole('form', { name: 'Universal Login look' });
      await openSection(page, 'Branding', 'Branding');
      await look.getByLabel('Primary colour', { exact: true }).fill('#0a7d33');
      assert.equal((await preview).status(), 200, 'the preview of the login page with the new colour');
      await look.getByRole('button', { name: 'Save branding' }).click();
      await look.getByText('Branding saved.').waitFor();
      assert.equal(((await management('GET', '/branding')).colors as { primary?: string }).primary, '#0a7d33');
      await scenario.shot('branding preview');

      // The page template: a refusal shown under its form, then a template saved; the login partials likewise.
      const templateForm = page.getByRole('form', { name: 'Page template' });
      const templateField = templateForm.getByLabel('Template (Liquid)');
      await templateField.fill('<html><body>no tags</body></html>');
      await templateForm.getByRole('button', { name: 'Save template' }).click();
      await templateForm.getByText(/missing required Liquid tags/).waitFor();
      await templateField.fill('<!DOCTYPE html><html><head>{%- auth0:head -%}</head><body><header>Acme console</header>{%- auth0:widget -%}</body></html>');
      await templateForm.getByRole('button', { name: 'Save template' }).click();
      await templateForm.getByText(/Template saved/).waitFor();
      assert.match(String((await management('GET', '/branding/templates/universal-login')).body), /<header>Acme console<\/header>/);
      const partialsForm = page.getByRole('form', { name: 'Login page partials' });
      await partialsForm.getByLabel('Form start (before the first field)').fill('<script>alert(1)</script>');
      await partialsForm.getByRole('button', { name: 'Save partials' }).click();
      await partialsForm.getByText(/may not contain a <script> element/).waitFor();
      await partialsForm.getByLabel('Form start (before the first field)').fill('');
      await partialsForm.getByLabel('Form end (before the button)').fill('<p>Terms apply.</p>');
      await partialsForm.getByRole('button', { name: 'Save partials' }).click();
      await partialsForm.getByText('Partials saved.').waitFor();
      assert.deepEqual(await management('GET', '/prompts/login/partials'), { login: { 'form-content-end': '<p>Terms apply.</p>' } });
      // The theme: created from the defaults, its button colour changed and saved; the saved login page beside it.
      await page.getByRole('button', { name: 'Create a theme' }).click();
      const themeForm = page.getByRole('form', { name: 'Theme' });
      await themeForm.getByLabel('Button', { exact: true }).fill('#8a1538');
      await themeForm.getByLabel('Buttons', { exact: true }).selectOption('pill');
      const themed = page.waitForResponse((response) => response.url().includes('/admin/preview/login?lang=en&v=1'));
      // The frame's URL changes when its navigation commits, which may come after the response: wait for that too.
      const themedFrame = page.waitForEvent('framenavigated', { predicate: (frame) => /\/admin\/preview\/login\?lang=en&v=1$/.test(frame.url()) });
      await themeForm.getByRole('button', { name: 'Save theme' }).click();
      await themeForm.getByText('Theme saved.').waitFor();
      assert.equal((await themed).status(), 200);
      await themedFrame;
      const savedTheme = await management('GET', '/branding/themes/default');
      assert.equal((savedTheme.colors as Record<string, string>).primary_button, '#8a1538');
      assert.equal((savedTheme.borders as Record<string, string>).buttons_style, 'pill');
      const previewFrame = page.frame({ url: /\/admin\/preview\/login\?lang=en&v=1$/ });
      assert.ok(previewFrame, 'the saved theme\'s preview');
      await previewFrame.locator('button[type=submit]').waitFor();
      assert.equal(await previewFrame.evaluate("getComputedStyle(document.querySelector('button[type=submit]')).backgroundColor"), 'rgb(138, 21, 56)');
      await checkAccessibility(scenario, 'branding editors');
      await management('DELETE', `/branding/themes/${String(savedTheme.themeId)}`);
      await management('DELETE', '/branding/templates/universal-login');
      await management('PUT', '/prompts/login/partials', {});
      assert.deepEqual(cspViolations(scenario), [], 'no Content-Security-Policy violation');
    });
  });

  test('the other sections: a rotated secret, a role with a permission, a connection enabled for an application, an organization member, a factor, APNs (a bad file refused), tenant settings, users over two pages, a password-reset link, a log event', async () => {
    const role = await operatorRole('Console operators', await managementScopes());
    const email = await operator('operator', role);
    const identifier = `https://ledger-${suffix()}.example.com/`;
    await management('POST', '/resource-servers', { identifier, name: `Ledger ${suffix()}`, scopes: [{ value: 'read:ledger', description: 'Read the ledger' }] });
    const app = await management('POST', '/clients', { name: `Ledger app ${suffix()}`, app_type: 'regular_web' });
    const member = newEmail('member');
    const memberId = await createUser(member);
    // Two authentication methods of the member, for the user page's list (one removed there).
    await management('POST', `/users/${encodeURIComponent(memberId)}/authentication-methods`, { type: 'email', email: `otp-${member}` });
    await management('POST', `/users/${encodeURIComponent(memberId)}/authentication-methods`, { type: 'phone', phone_number: '+15550001234' });
    // A page and one more of users whose emails share a prefix, for the users list's pager.
    const many = `many-${suffix()}`;
    for (let i = 0; i < 51; i += 17) await Promise.all(Array.from({ length: Math.min(17, 51 - i) }, (_, j) => createUser(`${many}-${String(i + j).padStart(2, '0')}@example.com`)));

    await inScenario(browser!, 'admin console other sections', async (scenario) => {
      const { page } = scenario;
      await logIn(scenario, email);
      await heading(page, 'Applications');

      // A secret rotated after the confirmation.
      await page.getByRole('link', { name: app.name as string, exact: true }).click();
      await heading(page, app.name as string);
      await page.getByRole('button', { name: 'Reveal secret' }).click();
      const secret = page.getByTestId('client-secret');
      assert.equal(await secret.textContent(), app.client_secret);
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('button', { name: 'Yes, rotate secret' }).click();
      await secret.filter({ hasNotText: app.client_secret as string }).waitFor();
      const rotated = (await management('GET', `/clients/${app.client_id as string}`)).client_secret as string;
      assert.notEqual(rotated, app.client_secret, 'a new secret');
      assert.equal(await secret.textContent(), rotated, 'the page shows the new secret');

      // A role with a permission of an API.
      await openSection(page, 'Roles', 'Roles');
      const roleName = `Auditors ${suffix()}`;
      const createRoleForm = page.getByRole('form', { name: 'Create a role' });
      await createRoleForm.getByLabel('Name').fill(roleName);
      await createRoleForm.getByRole('button', { name: 'Create role' }).click();
      await heading(page, roleName);
      const roleId = routeId(page);
      const addPermission = page.getByRole('form', { name: 'Add a permission' });
      await addPermission.getByLabel('API', { exact: true }).selectOption(identifier);
      await addPermission.getByLabel('Scope').selectOption('read:ledger');
      await addPermission.getByRole('button', { name: 'Add permission' }).click();
      await addPermission.getByText('Permission added.').waitFor();
      const permissions = (await management('GET', `/roles/${roleId}/permissions`)) as unknown as { permission_name: string; resource_server_identifier: string }[];
      assert.deepEqual(permissions.map((p) => [p.resource_server_identifier, p.permission_name]), [[identifier, 'read:ledger']]);
      await checkAccessibility(scenario, 'role');

      // A database connection, enabled for the application.
      await openSection(page, 'Connections', 'Connections');
      const connectionName = `staff-${suffix()}`;
      const createConnection = page.getByRole('form', { name: 'Create a database connection' });
      await createConnection.getByLabel('Name').fill(connectionName);
      await createConnection.getByRole('button', { name: 'Create connection' }).click();
      await heading(page, connectionName);
      const connectionId = routeId(page);
      const enabled = page.getByRole('form', { name: 'Applications using this connection' });
      await enabled.getByRole('checkbox', { name: app.name as string, exact: true }).check();
      await enabled.getByRole('button', { name: 'Save applications' }).click();
      await enabled.getByText('Applications saved.').waitFor();
      try {
        const connectionClients = (await management('GET', `/connections/${connectionId}/clients`)) as { clients: { client_id: string }[] };
        assert.deepEqual(connectionClients.clients.map((c) => c.client_id), [app.client_id]);
        await checkAccessibility(scenario, 'connection');
      } finally {
        // Leaves the tenant as the other scenarios expect it (the console's own login keeps to
        // Username-Password-Authentication whatever other connections exist: test/authentication/console.test.ts).
        await deleteConnection(connectionId);
      }

      // An organization and a member added by email.
      await openSection(page, 'Organizations', 'Organizations');
      const orgName = `acme-${suffix()}`;
      const createOrg = page.getByRole('form', { name: 'Create an organization' });
      await createOrg.getByLabel('Name', { exact: true }).fill(orgName);
      await createOrg.getByLabel('Display name').fill('Acme');
      await createOrg.getByRole('button', { name: 'Create organization' }).click();
      await heading(page, 'Acme');
      const orgId = routeId(page);
      const addMember = page.getByRole('form', { name: 'Add a member' });
      await addMember.getByLabel('User email or ID').fill(member);
      await addMember.getByRole('button', { name: 'Add member' }).click();
      await addMember.getByText('Member added.').waitFor();
      const members = (await management('GET', `/organizations/${orgId}/members`)) as unknown as { user_id: string }[];
      assert.deepEqual(members.map((m) => m.user_id), [memberId]);
      await checkAccessibility(scenario, 'organization');

      // A factor turned on.
      await openSection(page, 'Multi-factor auth', 'Multi-factor authentication');
      await page.getByRole('button', { name: 'Turn on One-time password (authenticator app)' }).click();
      await page.getByRole('button', { name: 'Turn off One-time password (authenticator app)' }).waitFor();
      const factors = (await management('GET', '/guardian/factors')) as unknown as { name: string; enabled: boolean }[];
      assert.equal(factors.find((f) => f.name === 'otp')?.enabled, true);

      // Direct APNs: a file that is no PKCS#12 is refused with the API's message; a DER one is taken.
      const apns = page.getByRole('form', { name: 'Apple Push Notification service (direct)' });
      await apns.getByLabel('Bundle ID').fill('com.acme.app');
      await apns.getByLabel('Sandbox (development) environment').check();
      const certificate = apns.getByLabel('Certificate (.p12)');
      await certificate.setInputFiles({ name: 'notes.p12', mimeType: 'application/x-pkcs12', buffer: Buffer.from('not a certificate') });
      await apns.getByRole('button', { name: 'Save APNs settings' }).click();
      await apns.getByRole('alert').filter({ hasText: 'Base64 data is not a PKCS#12 file' }).waitFor();
      assert.deepEqual(await management('GET', '/guardian/factors/push-notification/providers/apns'), { enabled: false }, 'nothing stored');
      // A DER SEQUENCE, all the API checks of the file (the certificate is checked when pushes are sent).
      await certificate.setInputFiles({ name: 'apns.p12', mimeType: 'application/x-pkcs12', buffer: Buffer.from([0x30, 0x03, 0x02, 0x01, 0x03]) });
      await apns.getByRole('button', { name: 'Save APNs settings' }).click();
      await apns.getByText('APNs settings saved.').waitFor();
      assert.deepEqual(await management('GET', '/guardian/factors/push-notification/providers/apns'), { bundle_id: 'com.acme.app', sandbox: true, enabled: true });

      // Tenant settings.
      await openSection(page, 'Tenant settings', 'Tenant settings');
      const general = page.getByRole('form', { name: 'General' });
      await general.getByLabel('Friendly name').fill('Acme Identity');
      await general.getByLabel('Support email').fill('help@acme.example.com');
      await general.getByRole('button', { name: 'Save settings' }).click();
      await general.getByText('Tenant settings saved.').waitFor();
      const settings = await management('GET', '/tenants/settings');
      assert.equal(settings.friendly_name, 'Acme Identity');
      assert.equal(settings.support_email, 'help@acme.example.com');

      // 51 users: a page of 50, then the next page with the one left.
      await openSection(page, 'Users', 'Users');
      const search = page.getByRole('search');
      await search.getByLabel('Search users').fill(`email:${many}*`);
      await search.getByRole('button', { name: 'Search' }).click();
      const links = page.getByRole('table').getByRole('link');
      // Until the search's answer replaces the unfiltered list, which has a next page too.
      await until(page, 'the search for the 51 users', async () => (await links.allTextContents()).filter((email) => email.startsWith(many)).length === 50);
      const first = await links.allTextContents();
      assert.equal(new Set(first).size, 50, 'a page of 50 users');
      assert.ok(first.every((email) => email.startsWith(many)), 'all found by the search');
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.getByText('Page 2', { exact: true }).waitFor();
      // The page-1 table goes before the page-2 one comes (new deps drop what was shown).
      await until(page, 'page 2 of the 51 users', async () => (await links.count()) === 1);
      const [last] = await links.allTextContents();
      assert.ok(last?.startsWith(many) && !first.includes(last), `the 51st user on page 2: ${last}`);
      assert.equal(await page.getByRole('button', { name: 'Next page' }).isDisabled(), true);
      await checkAccessibility(scenario, 'users page 2');

      // A user found with q, and a password-reset link for them.
      await page.getByRole('search').getByLabel('Search users').fill(`email:"${member}"`);
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      await page.getByRole('link', { name: member, exact: true }).click();
      await heading(page, member);
      const reset = page.getByRole('form', { name: 'Password reset' });
      await reset.getByRole('button', { name: 'Create password reset link' }).click();
      await reset.getByText('Password reset link created.', { exact: false }).waitFor();
      assert.ok(((await reset.locator('code').textContent()) ?? '').startsWith(`${server.baseUrl}/`), 'a link on the tenant');

      // The user's authentication methods: listed, and one removed.
      const methods = page.getByRole('table', { name: 'Passkeys, security keys and second factors' });
      await methods.getByRole('cell', { name: `otp-${member}` }).waitFor();
      await methods.getByRole('cell', { name: '+15550001234' }).waitFor();
      await checkAccessibility(scenario, 'user with authentication methods');
      await methods.getByRole('button', { name: 'Remove email' }).click();
      await methods.getByRole('cell', { name: `otp-${member}` }).waitFor({ state: 'detached' });
      const left = (await management('GET', `/users/${encodeURIComponent(memberId)}/authentication-methods`)) as unknown as { type: string }[];
      assert.deepEqual(left.map((m) => m.type), ['phone'], 'the email method is gone, the phone stays');

      // A log event, listed and opened.
      await openSection(page, 'Logs', 'Logs');
      await page.getByRole('search').getByLabel('Search logs').fill('type:s');
      await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
      // Until the search's answer replaces the unfiltered list: every row's type (the second column) is `s`.
      const types = page.getByRole('table').locator('tbody td:nth-child(2)');
      await until(page, 'the logs of type s', async () => {
        const found = await types.allTextContents();
        return found.length > 0 && found.every((type) => type === 's');
      });
      await page.getByRole('table').getByRole('link').first().click();
      await heading(page, 'Log event');
      const log = await management('GET', `/logs/${encodeURIComponent(routeId(page))}`);
      assert.equal(log.type, 's');
      await checkAccessibility(scenario, 'log');
      assert.deepEqual(cspViolations(scenario), [], 'no Content-Security-Policy violation');
    });
  });

  test('a user who is no operator is refused: the refusal screen shows the error and its Log out ends the session', async () => {
    const email = newEmail('customer');
    await createUser(email);
    await inScenario(browser!, 'admin console refused', async (scenario) => {
      const { page } = scenario;
      await logIn(scenario, email);
      await heading(page, 'Access refused');
      const alert = page.getByRole('alert');
      assert.match((await alert.textContent()) ?? '', /^access_denied: .*not an operator/, 'the error and its description');
      assert.equal(await page.getByRole('navigation', { name: 'Sections' }).count(), 0, 'no console behind the refusal');
      await checkAccessibility(scenario, 'refused');
      await Promise.all([page.waitForURL((url) => url.pathname === '/login'), page.getByRole('button', { name: 'Log out' }).click()]);
      await scenario.shot('logged out: the login page again');
      assert.deepEqual(cspViolations(scenario), []);
    });
  });

  test("an operation outside the operator's scopes answers 403: the console says it is not allowed and nothing is created; once blocked, the operator is told to log in again", async () => {
    const role = await operatorRole('Console readers', ['read:clients', 'read:client_keys']);
    const email = await operator('reader', role);
    const appName = `Forbidden ${suffix()}`;
    await inScenario(browser!, 'admin console not allowed', async (scenario) => {
      const { page } = scenario;
      await logIn(scenario, email);
      await heading(page, 'Applications');
      const createApp = page.getByRole('form', { name: 'Create an application' });
      await createApp.getByLabel('Name').fill(appName);
      await createApp.getByRole('button', { name: 'Create application' }).click();
      const alert = createApp.getByRole('alert');
      await alert.waitFor();
      assert.match((await alert.textContent()) ?? '', /You are not allowed to do this/);
      await scenario.shot('not allowed');
      await openSection(page, 'Users', 'Users');
      assert.match((await page.getByRole('alert').first().textContent()) ?? '', /You are not allowed to do this/, 'a list it may not read says so too');

      // Blocked meanwhile: the token is refused at once (401), and the console says what to do.
      const [reader] = (await management('GET', `/users-by-email?email=${encodeURIComponent(email)}`)) as unknown as { user_id: string }[];
      await management('PATCH', `/users/${encodeURIComponent(reader!.user_id)}`, { blocked: true });
      await openSection(page, 'Applications', 'Applications');
      await page.getByRole('alert').filter({ hasText: 'Your access has ended: log out and log in again.' }).waitFor();
      await scenario.shot('access ended');
    });
    const clients = (await management('GET', '/clients?fields=name')) as unknown as { name: string }[];
    assert.ok(!clients.some((c) => c.name === appName), 'no application was created');
  });
});
