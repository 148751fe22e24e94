/**
 * /api/v2/emails/provider and /api/v2/email-templates through the real app
 * and database, and the mail Gatehouse sends with them:
 *
 * - templates: create (200), get, put, patch, their refusals; verify_email
 *   and reset_email rendered with liquidjs and the service's variables, the
 *   link living urlLifetimeInSeconds, a disabled template sending nothing,
 *   the verification page leading to the template's resultUrl and sending
 *   the welcome_email template;
 * - the provider: smtp only, the password sealed at rest and never
 *   returned; once set and enabled the tenant's mail goes to its SMTP server
 *   (smtp-server on 127.0.0.1 as the stand-in, over STARTTLS with a
 *   certificate trusted through GATEHOUSE_SMTP_CA_FILE, authenticated with
 *   the stored credentials, from default_from_address or the template's
 *   sender) instead of the process's outbox; a server without TLS never
 *   sees the credentials; disabled or deleted, mail goes back to the outbox.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, DOMAIN, tempDir, type TestApp } from '../helpers/app.js';
import { hidden } from '../helpers/browser.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const SMTP_PASS = 's3cret-smtp-pass-value';

interface Received {
  from: string | undefined;
  to: string[];
  data: string;
}

/** A local SMTP server: STARTTLS with `tls` (or none), PLAIN/LOGIN auth recorded. */
async function smtpStandIn(tls: { key: string; cert: string } | undefined) {
  const received: Received[] = [];
  const logins: { username: string | undefined; password: string | undefined }[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const closing: (() => void)[] = [];
  const server = new SMTPServer({
    logger: false,
    onClose() {
      closing.shift()?.();
    },
    ...(tls ? { key: tls.key, cert: tls.cert } : { disabledCommands: ['STARTTLS'], allowInsecureAuth: true }),
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? undefined, password: auth.password ?? undefined });
      if (auth.username === 'mailer' && auth.password === SMTP_PASS) return callback(null, { user: 'mailer' });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (data += chunk));
      stream.on('end', () => {
        const message = { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), data };
        received.push(message);
        waiting.shift()?.(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    logins,
    /** The next message delivered (a real network delivery: waited for, bounded). */
    next: () =>
      new Promise<Received>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no mail arrived within 10 s')), 10_000);
        waiting.push((m) => {
          clearTimeout(timer);
          resolve(m);
        });
      }),
    /** The end of the next connection (a client that gave up closes it). */
    nextClose: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no connection closed within 10 s')), 10_000);
        closing.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('/api/v2/emails/provider and /api/v2/email-templates', () => {
  let t: TestApp;
  let tlsServer: Awaited<ReturnType<typeof smtpStandIn>>;
  let plainServer: Awaited<ReturnType<typeof smtpStandIn>>;
  let caFile: string;
  const api = (method: string, url: string, body?: unknown) => t.management(method, url, { ...(body !== undefined && { body }) });

  async function createUser(email: string): Promise<string> {
    const res = await api('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD, verify_email: true });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { user_id: string }).user_id;
  }
  const mailsTo = (to: string) => readOutbox(t.ctx).filter((m) => m.to === to);

  before(async () => {
    const material = await createTlsCertificate(['127.0.0.1']);
    const dir = tempDir();
    caFile = path.join(dir, 'smtp-ca.pem');
    fs.writeFileSync(caFile, material.certPem);
    tlsServer = await smtpStandIn({ key: material.keyPem, cert: material.certPem });
    plainServer = await smtpStandIn(undefined);
    // The stand-ins listen on the loopback interface, which tenants may reach only when the operator allows it.
    t = await createTestApp({ env: { GATEHOUSE_SMTP_CA_FILE: caFile, GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.0/8' } });
    const res = await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [t.admin.client_id] });
    assert.equal(res.statusCode, 201, res.body);
  });
  after(async () => {
    await t.close();
    await tlsServer.close();
    await plainServer.close();
  });

  describe('templates', () => {
    it('creates (200), reads, replaces and changes a template in the document\'s shape; refusals change nothing', async () => {
      const body = { template: 'welcome_email', body: '<p>Hi {{ user.email }}</p>', from: 'hello@example.com', subject: 'Welcome', syntax: 'liquid', enabled: true };
      const created = await api('POST', '/api/v2/email-templates', body);
      assert.equal(created.statusCode, 200, created.body);
      const expected = { ...body, resultUrl: null, urlLifetimeInSeconds: null, includeEmailInRedirect: false };
      assert.deepEqual(created.json(), expected);
      assert.deepEqual((await api('GET', '/api/v2/email-templates/welcome_email')).json(), expected);
      const again = await api('POST', '/api/v2/email-templates', body);
      assert.equal(again.statusCode, 409);
      assert.equal((again.json() as { message: string }).message, 'Template (welcome_email) already exists.');
      const patched = await api('PATCH', '/api/v2/email-templates/welcome_email', { subject: 'Welcome, {{ user.email }}', resultUrl: 'https://app.example.com/welcome' });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.deepEqual(patched.json(), { ...expected, subject: 'Welcome, {{ user.email }}', resultUrl: 'https://app.example.com/welcome' });
      const put = await api('PUT', '/api/v2/email-templates/welcome_email', { ...body, enabled: false });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), { ...expected, enabled: false });

      for (const [method, url, bad] of [
        ['POST', '/api/v2/email-templates', { ...body, template: 'change_password', body: '{% if %}' }],
        ['POST', '/api/v2/email-templates', { ...body, template: 'change_password', syntax: 'handlebars' }],
        ['POST', '/api/v2/email-templates', { ...body, template: 'no_such_template' }],
        ['POST', '/api/v2/email-templates', { ...body, template: 'change_password', body: 'x'.repeat(65_537) }],
        ['POST', '/api/v2/email-templates', { template: 'change_password' }],
        ['PATCH', '/api/v2/email-templates/welcome_email', { resultUrl: 'javascript:alert(1)' }],
        ['PATCH', '/api/v2/email-templates/welcome_email', { template: 'verify_email' }],
        ['PATCH', '/api/v2/email-templates/welcome_email', { urlLifetimeInSeconds: -1 }],
        ['PATCH', '/api/v2/email-templates/welcome_email', { unknown: true }],
      ] as const) {
        const res = await api(method, url, bad);
        assert.equal(res.statusCode, 400, `${method} ${JSON.stringify(bad).slice(0, 80)}: ${res.body}`);
      }
      assert.equal((await api('GET', '/api/v2/email-templates/change_password')).statusCode, 404, 'nothing was created');
      assert.equal((await api('PATCH', '/api/v2/email-templates/change_password', { enabled: true })).statusCode, 404);
      assert.equal((await api('GET', '/api/v2/email-templates/nonsense')).statusCode, 400);
      const token = await t.managementToken('read:email_templates');
      assert.equal((await t.management('PATCH', '/api/v2/email-templates/welcome_email', { token, body: { enabled: true } })).statusCode, 403);
    });

    it('verify_email and reset_email are rendered with the service\'s variables; the link lives urlLifetimeInSeconds', async () => {
      const verify = await api('POST', '/api/v2/email-templates', {
        template: 'verify_email',
        body: '<p>{{ user.email }}: <a href="{{ url }}">verify</a> for {{ friendly_name }} <b>{{ user.user_metadata.team }}</b></p>',
        from: '',
        subject: 'Verify {{ user.email }}',
        syntax: 'liquid',
        enabled: true,
        urlLifetimeInSeconds: 600,
      });
      assert.equal(verify.statusCode, 200, verify.body);
      const res = await api('POST', '/api/v2/users', { connection: REALM, email: 'templated@example.com', password: PASSWORD, verify_email: true, user_metadata: { team: '<red>' } });
      assert.equal(res.statusCode, 201, res.body);
      const [mail] = mailsTo('templated@example.com');
      assert.ok(mail, 'a verification mail was sent');
      assert.equal(mail.subject, 'Verify templated@example.com');
      const link = /href="([^"]+)"/.exec(mail.html!)![1]!;
      assert.match(link, new RegExp(`^https://${DOMAIN.replace('.', '\\.')}/verify-email\\?ticket=`));
      assert.ok(mail.html!.includes(`for ${t.tenant.name} <b>&lt;red&gt;</b>`), `values are HTML-escaped: ${mail.html}`);
      assert.ok(mail.text.includes(link), 'the plain-text part carries the same link');
      const ticket = await t.ctx.database.db.selectFrom('tickets').select(['created_at', 'expires_at']).where('kind', '=', 'email_verification').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      assert.equal(Date.parse(ticket.expires_at) - Date.parse(ticket.created_at), 600_000);

      await api('POST', '/api/v2/email-templates', { template: 'reset_email', body: '<a href="{{ url }}">reset</a>', from: null, subject: 'Reset for {{ user.email }}', syntax: 'liquid', enabled: true });
      const change = await t.app.inject({
        method: 'POST',
        url: '/dbconnections/change_password',
        headers: { host: DOMAIN, 'content-type': 'application/json' },
        payload: { email: 'templated@example.com', connection: REALM, client_id: t.admin.client_id },
      });
      assert.equal(change.statusCode, 200, change.body);
      const reset = mailsTo('templated@example.com').find((m) => m.subject === 'Reset for templated@example.com');
      assert.ok(reset, 'the reset mail uses the reset_email template');
      assert.match(reset.html!, /reset-password\?ticket=/);
    });

    it('a disabled template sends no mail', async () => {
      assert.equal((await api('PATCH', '/api/v2/email-templates/verify_email', { enabled: false })).statusCode, 200);
      await createUser('silent@example.com');
      assert.equal(mailsTo('silent@example.com').length, 0);
      assert.equal((await api('PATCH', '/api/v2/email-templates/verify_email', { enabled: true })).statusCode, 200);
    });
  });

  describe('the verification result', () => {
    it('after the address is verified the browser goes to the template\'s resultUrl (with the address when includeEmailInRedirect), and the welcome_email template is sent', async () => {
      const patched = await api('PATCH', '/api/v2/email-templates/verify_email', { resultUrl: 'https://app.example.com/verified?from=mail', includeEmailInRedirect: true });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal((await api('PATCH', '/api/v2/email-templates/welcome_email', { enabled: true })).statusCode, 200);
      await createUser('result@example.com');
      const link = new URL(/href="([^"]+)"/.exec(mailsTo('result@example.com')[0]!.html!)![1]!.replaceAll('&amp;', '&'));
      const form = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers: { host: DOMAIN } });
      assert.equal(form.statusCode, 200, form.body);
      const done = await t.app.inject({
        method: 'POST',
        url: '/verify-email',
        headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ticket: link.searchParams.get('ticket')!, csrf_token: hidden(form.body, 'csrf_token') }).toString(),
      });
      assert.equal(done.statusCode, 302, done.body);
      const target = new URL(done.headers.location as string);
      assert.equal(`${target.origin}${target.pathname}`, 'https://app.example.com/verified');
      assert.equal(target.searchParams.get('from'), 'mail');
      assert.equal(target.searchParams.get('success'), 'true');
      assert.equal(target.searchParams.get('email'), 'result@example.com');
      const welcome = mailsTo('result@example.com').filter((m) => m.subject === 'Welcome');
      assert.equal(welcome.length, 1, 'the enabled welcome_email template is sent once the address is verified');
      assert.equal(welcome[0]!.html, '<p>Hi result@example.com</p>');
      await api('PATCH', '/api/v2/email-templates/verify_email', { resultUrl: null, includeEmailInRedirect: false });
    });
  });

  describe('the provider', () => {
    it('is 404 until set; smtp only; the password is sealed at rest and never returned', async () => {
      assert.equal((await api('GET', '/api/v2/emails/provider')).statusCode, 404);
      assert.equal((await api('PATCH', '/api/v2/emails/provider', { enabled: true })).statusCode, 404);
      const sendgrid = await api('POST', '/api/v2/emails/provider', { name: 'sendgrid', credentials: { api_key: 'x' } });
      assert.equal(sendgrid.statusCode, 400);
      for (const credentials of [{ smtp_host: '127.0.0.1' }, { smtp_host: '127.0.0.1', smtp_port: 25, smtp_user: 'only-user' }, { smtp_host: 'bad host', smtp_port: 25 }, { smtp_host: 'h', smtp_port: 70000 }]) {
        assert.equal((await api('POST', '/api/v2/emails/provider', { name: 'smtp', credentials })).statusCode, 400, JSON.stringify(credentials));
      }
      const created = await api('POST', '/api/v2/emails/provider', {
        name: 'smtp',
        enabled: false,
        default_from_address: 'accounts@customer.example',
        credentials: { smtp_host: '127.0.0.1', smtp_port: tlsServer.port, smtp_user: 'mailer', smtp_pass: SMTP_PASS },
      });
      assert.equal(created.statusCode, 201, created.body);
      const expected = { name: 'smtp', enabled: false, default_from_address: 'accounts@customer.example', credentials: { smtp_host: '127.0.0.1', smtp_port: tlsServer.port, smtp_user: 'mailer' } };
      assert.deepEqual(created.json(), expected);
      const read = await api('GET', '/api/v2/emails/provider');
      assert.deepEqual(read.json(), expected);
      assert.ok(!read.body.includes(SMTP_PASS));
      assert.deepEqual((await api('GET', '/api/v2/emails/provider?fields=name,enabled&include_fields=true')).json(), { name: 'smtp', enabled: false });
      assert.equal((await api('POST', '/api/v2/emails/provider', { name: 'smtp', credentials: { smtp_host: 'x', smtp_port: 25 } })).statusCode, 409);
      const stored = await t.ctx.database.db.selectFrom('email_providers').selectAll().executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(stored).includes(SMTP_PASS), 'the password is sealed');
      assert.ok(!JSON.stringify(stored).includes('mailer'), 'and so is the rest of the credentials');
      const token = await t.managementToken('read:email_provider');
      assert.equal((await t.management('PATCH', '/api/v2/emails/provider', { token, body: { enabled: true } })).statusCode, 403);
    });

    it('once enabled, the tenant\'s mail goes to its SMTP server over TLS with its credentials, not to the outbox', async () => {
      assert.equal((await api('PATCH', '/api/v2/emails/provider', { enabled: true })).statusCode, 200);
      const arrival = tlsServer.next();
      await createUser('smtp-user@example.com');
      const mail = await arrival;
      assert.deepEqual(mail.to, ['smtp-user@example.com']);
      assert.equal(mail.from, 'accounts@customer.example');
      assert.match(mail.data, /Subject: Verify smtp-user@example.com/);
      assert.match(mail.data, /verify-email\?ticket=/);
      assert.deepEqual(tlsServer.logins.at(-1), { username: 'mailer', password: SMTP_PASS });
      assert.equal(mailsTo('smtp-user@example.com').length, 0, 'not in the outbox');

      // The template's sender is used through the tenant's own provider.
      await api('PATCH', '/api/v2/email-templates/verify_email', { from: 'Team <team@customer.example>' });
      const second = tlsServer.next();
      await createUser('smtp-user2@example.com');
      assert.equal((await second).from, 'team@customer.example');
    });

    it('a tenant server on a non-public address is refused unless GATEHOUSE_OUTBOUND_ALLOW covers it: nothing is sent', async () => {
      const other = await createTestApp({ env: { GATEHOUSE_SMTP_CA_FILE: caFile } });
      try {
        const set = await other.management('POST', '/api/v2/emails/provider', {
          body: { name: 'smtp', enabled: true, credentials: { smtp_host: '127.0.0.1', smtp_port: tlsServer.port, smtp_user: 'mailer', smtp_pass: SMTP_PASS } },
        });
        assert.equal(set.statusCode, 201, set.body);
        const received = tlsServer.received.length;
        const logins = tlsServer.logins.length;
        await assert.rejects(
          other.ctx.mailer.send({ id: other.tenant.id, domain: other.tenant.domain }, { to: 'x@example.com', subject: 's', text: 't' }),
          (err: Error & { code?: string }) => err.code === 'EOUTBOUNDREFUSED' && /127\.0\.0\.1 is not a public address/.test(err.message),
        );
        assert.equal(tlsServer.received.length, received);
        assert.equal(tlsServer.logins.length, logins, 'no credentials were offered');
      } finally {
        await other.close();
      }
    });

    it('a server without TLS never sees the credentials; disabled or deleted, mail goes back to the outbox', async () => {
      const patched = await api('PATCH', '/api/v2/emails/provider', { credentials: { smtp_port: plainServer.port } });
      assert.equal(patched.statusCode, 200, patched.body);
      assert.equal((patched.json() as { credentials: { smtp_user: string } }).credentials.smtp_user, 'mailer', 'the other credentials are kept');
      const closed = plainServer.nextClose();
      await createUser('no-tls@example.com');
      // The client connects, finds no STARTTLS, and gives up before AUTH.
      await closed;
      assert.equal(plainServer.logins.length, 0, 'no credentials were sent in the clear');
      assert.equal(plainServer.received.length, 0);

      assert.equal((await api('PATCH', '/api/v2/emails/provider', { enabled: false })).statusCode, 200);
      await createUser('back-to-outbox@example.com');
      assert.equal(mailsTo('back-to-outbox@example.com').length, 1);
      assert.equal((await api('DELETE', '/api/v2/emails/provider')).statusCode, 204);
      assert.equal((await api('DELETE', '/api/v2/emails/provider')).statusCode, 404);
      await createUser('after-delete@example.com');
      assert.equal(mailsTo('after-delete@example.com').length, 1);
    });
  });
});
