/**
 * The mail transports: the local outbox (JSON lines, mode 0600, in memory),
 * the choice from the environment, and SMTP delivery to a local stand-in
 * server (smtp-server on 127.0.0.1).
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ConfigError, loadConfig } from '../../../src/platform/config.js';
import { Mailer, senderFor } from '../../../src/platform/mail/index.js';

const mailSettingsFromEnv = (env: Record<string, string>) => loadConfig(env).mail;
import { OutboxTransport } from '../../../src/platform/mail/outbox.js';
import { tempDir } from '../../helpers/app.js';

describe('local outbox', () => {
  const dir = tempDir();
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('appends JSON lines to outbox.jsonl with mode 0600 and keeps messages in memory', async () => {
    const outbox = new OutboxTransport(dir, () => Date.parse('2025-01-01T00:00:00Z'));
    await outbox.send({ to: 'a@example.com', subject: 'One', text: 'first' });
    await outbox.send({ to: 'b@example.com', subject: 'Two', text: 'second', html: '<p>second</p>' });
    const file = path.join(dir, 'outbox.jsonl');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(lines[0], { sent_at: '2025-01-01T00:00:00.000Z', to: 'a@example.com', subject: 'One', text: 'first' });
    assert.equal(lines[1]!.html, '<p>second</p>');
    assert.deepEqual(outbox.messages().map((m) => m.subject), ['One', 'Two']);
  });
});

describe('mail settings', () => {
  it('uses the outbox without GATEHOUSE_SMTP_URL and refuses other schemes', () => {
    assert.equal(mailSettingsFromEnv({}).smtpUrl, undefined);
    assert.ok(new Mailer(mailSettingsFromEnv({}), tempDir(), Date.now).outbox);
    assert.throws(() => mailSettingsFromEnv({ GATEHOUSE_SMTP_URL: 'http://mail.example' }), (e: unknown) => e instanceof ConfigError && e.variable === 'GATEHOUSE_SMTP_URL');
    assert.equal(mailSettingsFromEnv({ GATEHOUSE_SMTP_URL: 'smtps://u:p@mail.example:465' }).smtpUrl, 'smtps://u:p@mail.example:465');
  });

  it('sends from no-reply@<tenant domain> without the port unless GATEHOUSE_MAIL_FROM is set', () => {
    assert.equal(senderFor(mailSettingsFromEnv({}), 'login.example.com:8443'), 'no-reply@login.example.com');
    assert.equal(senderFor(mailSettingsFromEnv({ GATEHOUSE_MAIL_FROM: 'Auth <auth@example.org>' }), 'x.test'), 'Auth <auth@example.org>');
  });
});

describe('SMTP transport', () => {
  it('delivers to the server named by GATEHOUSE_SMTP_URL', async () => {
    const received: { from: string | undefined; to: string[]; data: string }[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (data += chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.server.address() as AddressInfo;
      const settings = mailSettingsFromEnv({ GATEHOUSE_SMTP_URL: `smtp://127.0.0.1:${port}` });
      const mailer = new Mailer(settings, tempDir(), Date.now);
      assert.equal(mailer.outbox, undefined);
      await mailer.send({ id: 'ten_test', domain: 'tenant.test' }, { to: 'user@example.com', subject: 'Reset your password', text: 'https://tenant.test/reset-password?ticket=abc' });
      mailer.close();
      assert.equal(received.length, 1);
      assert.equal(received[0]!.from, 'no-reply@tenant.test');
      assert.deepEqual(received[0]!.to, ['user@example.com']);
      assert.match(received[0]!.data, /Subject: Reset your password/);
      assert.match(received[0]!.data, /reset-password\?ticket=abc/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
