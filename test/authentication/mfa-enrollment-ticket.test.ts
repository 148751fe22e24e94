/**
 * MFA enrollment tickets: POST /api/v2/guardian/enrollments/ticket and the
 * ticket's page (/guardian/enroll) through the real app: the mailed link,
 * OTP enrolment with a code computed from the page's secret, the recovery
 * code shown once, and the refusals (a used or forged ticket, a forged form,
 * an unknown user, an unsupported factor, an enrolled user without
 * allow_multiple_enrollments).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Secret, TOTP } from 'otpauth';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser, hidden } from '../helpers/browser.js';

const REALM = 'Username-Password-Authentication';

describe('MFA enrollment tickets', () => {
  let t: TestApp;
  let userId: string;

  const mgmt = (method: string, url: string, body?: unknown) => t.management(method, url, body === undefined ? {} : { body });

  before(async () => {
    t = await createTestApp();
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0' });
    userId = ((await mgmt('POST', '/api/v2/users', { connection: REALM, email: 'ticket@example.com', password: 'Correct horse battery 1' })).json() as { user_id: string }).user_id;
    for (const factor of ['otp', 'recovery-code']) await mgmt('PUT', `/api/v2/guardian/factors/${factor}`, { enabled: true });
  });
  after(() => t.close());

  it('a mailed ticket enrols an authenticator app once, and shows the recovery code', async () => {
    const res = await mgmt('POST', '/api/v2/guardian/enrollments/ticket', { user_id: userId, send_mail: true });
    assert.equal(res.statusCode, 200, res.body);
    const { ticket_id, ticket_url } = res.json() as { ticket_id: string; ticket_url: string };
    assert.match(ticket_id, /^[A-Za-z0-9_-]{22}$/);
    const url = new URL(ticket_url);
    assert.equal(`${url.origin}${url.pathname}`, `https://${DOMAIN}/guardian/enroll`);
    const mail = t.ctx.mailer.outbox!.messages().at(-1)!;
    assert.equal(mail.to, 'ticket@example.com');
    assert.ok(mail.text.includes(ticket_url), 'the mail carries the ticket URL');

    const browser = new Browser(t);
    const page = await browser.get(`${url.pathname}${url.search}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<svg/);
    const secret = /<code id="secret">([A-Z2-7]{32})<\/code>/.exec(page.body)![1]!;
    const ticket = hidden(page.body, 'ticket');
    const forged = await browser.post('/guardian/enroll', { ticket, csrf_token: 'forged', code: '000000' });
    assert.equal(forged.statusCode, 403);
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.ctx.now() });
    const done = await browser.post('/guardian/enroll', { ticket, csrf_token: hidden(page.body, 'csrf_token'), code });
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /<code id="recovery-code">[A-Z0-9]{24}<\/code>/);
    const enrollments = (await mgmt('GET', `/api/v2/users/${encodeURIComponent(userId)}/enrollments`)).json() as { status: string }[];
    assert.deepEqual(enrollments.map((e) => e.status), ['confirmed']);

    const again = await browser.get(`${url.pathname}${url.search}`);
    assert.equal(again.statusCode, 400, 'a ticket enrols once');
    assert.match(again.body, /This link is not valid/);
    const tampered = await browser.get(`/guardian/enroll?ticket=${encodeURIComponent(`${ticket.slice(0, -3)}AAA`)}`);
    assert.equal(tampered.statusCode, 400);
  });

  it('refuses an unknown user, an unsupported factor, and an enrolled user without allow_multiple_enrollments', async () => {
    const unknown = await mgmt('POST', '/api/v2/guardian/enrollments/ticket', { user_id: 'auth0|nobody' });
    assert.equal(unknown.statusCode, 404, unknown.body);
    const factor = await mgmt('POST', '/api/v2/guardian/enrollments/ticket', { user_id: userId, factor: 'webauthn-roaming', allow_multiple_enrollments: true });
    assert.equal(factor.statusCode, 400, factor.body);
    const enrolled = await mgmt('POST', '/api/v2/guardian/enrollments/ticket', { user_id: userId });
    assert.equal(enrolled.statusCode, 400, enrolled.body);
    const multiple = await mgmt('POST', '/api/v2/guardian/enrollments/ticket', { user_id: userId, allow_multiple_enrollments: true });
    assert.equal(multiple.statusCode, 200, multiple.body);
    const readOnly = await t.managementToken('read:users');
    const scope = await t.management('POST', '/api/v2/guardian/enrollments/ticket', { token: readOnly, body: { user_id: userId } });
    assert.equal(scope.statusCode, 403);
  });
});
