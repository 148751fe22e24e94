/** Configuration: defaults, and a message naming the variable for each bad value. */
import assert from 'node:assert/strict';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, SETTINGS, helpText, loadConfig } from '../src/platform/config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.sqliteFile, path.resolve('./data/gatehouse.db'));
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.defaultDomain, 'localhost:3000');
    assert.equal(config.plainHttp, false);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.trustProxy, false, 'no proxy is trusted by default');
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.equal(config.maxConnectionsPerAddress, 256);
    assert.equal(config.tlsHandshakeTimeoutMs, 10_000);
    assert.equal(config.workers, 1, 'one process serves by default');
    assert.equal(config.shutdownGraceMs, 10_000);
    assert.equal(loadConfig({ GATEHOUSE_SHUTDOWN_GRACE: '2.5' }).shutdownGraceMs, 2_500);
    assert.equal(loadConfig({ GATEHOUSE_WORKERS: 'auto' }).workers, os.availableParallelism());
    assert.equal(loadConfig({ GATEHOUSE_WORKERS: '3' }).hashing.threads, Math.max(1, Math.floor((os.availableParallelism() - 1) / 3)), 'hashing threads shared among workers');
    assert.equal(config.sms.twilioUrl, 'https://api.twilio.com');
    assert.equal(loadConfig({ GATEHOUSE_TWILIO_URL: 'http://127.0.0.1:8081' }).sms.twilioUrl, 'http://127.0.0.1:8081', 'http only to a loopback stand-in');
    assert.deepEqual(
      config.push,
      { apnsUrl: undefined, snsEndpoint: undefined, fcmUrl: undefined, fcmTokenUrl: undefined, caFile: undefined },
      "push providers' own defaults (Apple's hosts by sandbox, the region's SNS endpoint, Google's FCM and token hosts)",
    );
    assert.equal(loadConfig({ GATEHOUSE_FCM_TOKEN_URL: 'http://127.0.0.1:9000/token' }).push.fcmTokenUrl, 'http://127.0.0.1:9000/token', 'an endpoint keeps its path');
    assert.throws(() => loadConfig({ GATEHOUSE_FCM_TOKEN_URL: 'http://token.example.com/token' }), /GATEHOUSE_FCM_TOKEN_URL/, 'http only to a loopback stand-in');
    assert.throws(() => loadConfig({ GATEHOUSE_FCM_URL: 'https://fcm.example.com/v1' }), /GATEHOUSE_FCM_URL/, 'a base URL has no path');
    assert.equal(loadConfig({ GATEHOUSE_APNS_URL: 'https://127.0.0.1:8443' }).push.apnsUrl, 'https://127.0.0.1:8443');
    assert.equal(loadConfig({ GATEHOUSE_SNS_ENDPOINT: 'http://localhost:9911' }).push.snsEndpoint, 'http://localhost:9911');
    assert.deepEqual(config.captcha, { recaptchaV2VerifyUrl: undefined, hcaptchaVerifyUrl: undefined, friendlyCaptchaVerifyUrl: undefined, caFile: undefined }, "the providers' own verify endpoints");
    assert.equal(loadConfig({ GATEHOUSE_RECAPTCHA_VERIFY_URL: 'https://127.0.0.1:9443/recaptcha/api/siteverify' }).captcha.recaptchaV2VerifyUrl, 'https://127.0.0.1:9443/recaptcha/api/siteverify', 'a verify endpoint keeps its path');
    assert.deepEqual(config.rateLimits, {
      management: { burst: 50, perSecond: 16 },
      authentication: { burst: 100, perSecond: 100 },
      management_clients_query: { burst: 20, perSecond: 5 },
    });
  });

  it('derives the default domain from PORT and reads the rest', () => {
    const config = loadConfig({
      PORT: '8443',
      GATEHOUSE_HTTP: '1',
      DATABASE_URL: 'postgres://u@h/db',
      GATEHOUSE_RATE_LIMIT_MANAGEMENT: '10/5',
    });
    assert.equal(config.defaultDomain, 'localhost:8443');
    assert.equal(config.plainHttp, true);
    assert.equal(config.databaseUrl, 'postgres://u@h/db');
    assert.deepEqual(config.rateLimits.management, { burst: 10, perSecond: 5 });
    const limits = loadConfig({ GATEHOUSE_REQUEST_TIMEOUT: '2.5', GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: '1000', GATEHOUSE_TLS_HANDSHAKE_TIMEOUT: '0.5' });
    assert.equal(limits.requestTimeoutMs, 2500);
    assert.equal(limits.maxConnectionsPerAddress, 1000);
    assert.equal(limits.tlsHandshakeTimeoutMs, 500);
  });

  const bad: [Record<string, string>, string][] = [
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ GATEHOUSE_DOMAIN: 'https://auth.example.com/' }, 'GATEHOUSE_DOMAIN'],
    [{ GATEHOUSE_ADMIN_CLIENT_ID: 'abc' }, 'GATEHOUSE_ADMIN_CLIENT_SECRET'],
    [{ GATEHOUSE_ADMIN_CLIENT_ID: 'a b', GATEHOUSE_ADMIN_CLIENT_SECRET: '0123456789abcdef' }, 'GATEHOUSE_ADMIN_CLIENT_ID'],
    [{ GATEHOUSE_ADMIN_CLIENT_ID: 'abc', GATEHOUSE_ADMIN_CLIENT_SECRET: 'short' }, 'GATEHOUSE_ADMIN_CLIENT_SECRET'],
    [{ TLS_CERT_FILE: '/x.pem' }, 'TLS_KEY_FILE'],
    [{ GATEHOUSE_TLS_HANDSHAKE_TIMEOUT: '0' }, 'GATEHOUSE_TLS_HANDSHAKE_TIMEOUT'],
    [{ GATEHOUSE_TLS_HANDSHAKE_TIMEOUT: 'ten' }, 'GATEHOUSE_TLS_HANDSHAKE_TIMEOUT'],
    [{ GATEHOUSE_HTTP: 'yes' }, 'GATEHOUSE_HTTP'],
    [{ GATEHOUSE_MASTER_KEY: 'too-short' }, 'GATEHOUSE_MASTER_KEY'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ GATEHOUSE_RATE_LIMIT_AUTHENTICATION: 'fast' }, 'GATEHOUSE_RATE_LIMIT_AUTHENTICATION'],
    [{ GATEHOUSE_REQUEST_TIMEOUT: '0' }, 'GATEHOUSE_REQUEST_TIMEOUT'],
    [{ GATEHOUSE_REQUEST_TIMEOUT: '30s' }, 'GATEHOUSE_REQUEST_TIMEOUT'],
    [{ GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: '0' }, 'GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS'],
    [{ GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS: 'many' }, 'GATEHOUSE_MAX_CONNECTIONS_PER_ADDRESS'],
    [{ GATEHOUSE_WORKERS: '0' }, 'GATEHOUSE_WORKERS'],
    [{ GATEHOUSE_WORKERS: 'many' }, 'GATEHOUSE_WORKERS'],
    [{ GATEHOUSE_WORKERS: '65' }, 'GATEHOUSE_WORKERS'],
    [{ GATEHOUSE_SHUTDOWN_GRACE: '0' }, 'GATEHOUSE_SHUTDOWN_GRACE'],
    [{ GATEHOUSE_SHUTDOWN_GRACE: '10s' }, 'GATEHOUSE_SHUTDOWN_GRACE'],
    [{ GATEHOUSE_SHUTDOWN_GRACE: '3601' }, 'GATEHOUSE_SHUTDOWN_GRACE'],
    [{ GATEHOUSE_RATE_LIMIT_MANAGEMENT: '0/1' }, 'GATEHOUSE_RATE_LIMIT_MANAGEMENT'],
    [{ GATEHOUSE_TRUST_PROXY: 'true' }, 'GATEHOUSE_TRUST_PROXY'],
    [{ GATEHOUSE_TRUST_PROXY: '10.0.0.0/33' }, 'GATEHOUSE_TRUST_PROXY'],
    [{ GATEHOUSE_TRUST_PROXY: '10.0.0.1,example.com' }, 'GATEHOUSE_TRUST_PROXY'],
    [{ GATEHOUSE_TRUST_PROXY: '99' }, 'GATEHOUSE_TRUST_PROXY'],
    [{ GATEHOUSE_TWILIO_URL: 'http://twilio.example.com' }, 'GATEHOUSE_TWILIO_URL'],
    [{ GATEHOUSE_TWILIO_URL: 'https://api.twilio.com/2010-04-01' }, 'GATEHOUSE_TWILIO_URL'],
    [{ GATEHOUSE_TWILIO_URL: 'https://user:pass@api.twilio.com' }, 'GATEHOUSE_TWILIO_URL'],
    [{ GATEHOUSE_TWILIO_URL: 'not a url' }, 'GATEHOUSE_TWILIO_URL'],
    [{ GATEHOUSE_APNS_URL: 'http://api.push.apple.com' }, 'GATEHOUSE_APNS_URL'],
    [{ GATEHOUSE_APNS_URL: 'https://api.push.apple.com/3/device' }, 'GATEHOUSE_APNS_URL'],
    [{ GATEHOUSE_SNS_ENDPOINT: 'http://sns.us-east-1.amazonaws.com' }, 'GATEHOUSE_SNS_ENDPOINT'],
    [{ GATEHOUSE_SNS_ENDPOINT: 'nope' }, 'GATEHOUSE_SNS_ENDPOINT'],
    [{ GATEHOUSE_PUSH_CA_FILE: '/nonexistent/ca.pem' }, 'GATEHOUSE_PUSH_CA_FILE'],
    [{ GATEHOUSE_RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9443/siteverify' }, 'GATEHOUSE_RECAPTCHA_VERIFY_URL'],
    [{ GATEHOUSE_HCAPTCHA_VERIFY_URL: 'https://api.hcaptcha.com/siteverify?x=1' }, 'GATEHOUSE_HCAPTCHA_VERIFY_URL'],
    [{ GATEHOUSE_FRIENDLY_CAPTCHA_VERIFY_URL: 'not a url' }, 'GATEHOUSE_FRIENDLY_CAPTCHA_VERIFY_URL'],
    [{ GATEHOUSE_CAPTCHA_CA_FILE: '/nonexistent/ca.pem' }, 'GATEHOUSE_CAPTCHA_CA_FILE'],
    [{ GATEHOUSE_DEFAULT_CONNECTION: 'yes' }, 'GATEHOUSE_DEFAULT_CONNECTION'],
    [{ GATEHOUSE_METRICS_TOKEN: 'short' }, 'GATEHOUSE_METRICS_TOKEN'],
    [{ GATEHOUSE_METRICS_TOKEN: 'has a space in the middle of it' }, 'GATEHOUSE_METRICS_TOKEN'],
    [{ GATEHOUSE_METRICS_TOKEN: 'x'.repeat(257) }, 'GATEHOUSE_METRICS_TOKEN'],
    [{ GATEHOUSE_METRICS_PORT: '0' }, 'GATEHOUSE_METRICS_PORT'],
    [{ GATEHOUSE_METRICS_PORT: '9100x' }, 'GATEHOUSE_METRICS_PORT'],
    [{ PORT: '9100', GATEHOUSE_METRICS_PORT: '9100' }, 'GATEHOUSE_METRICS_PORT'],
  ];
  for (const [env, variable] of bad) {
    it(`names ${variable} for ${JSON.stringify(env)}`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.variable === variable && error.message.startsWith(`${variable}: `),
      );
    });
  }

  it('metrics are off and the default connection on unless configured', () => {
    const defaults = loadConfig({});
    assert.deepEqual(defaults.metrics, { token: undefined, port: undefined });
    assert.equal(defaults.defaultConnection, true);
    const set = loadConfig({ GATEHOUSE_METRICS_TOKEN: 'a-token-of-sixteen+', GATEHOUSE_METRICS_PORT: '9464', GATEHOUSE_DEFAULT_CONNECTION: '0' });
    assert.deepEqual(set.metrics, { token: 'a-token-of-sixteen+', port: 9464 });
    assert.equal(set.defaultConnection, false);
  });

  it('GATEHOUSE_TRUST_PROXY: a hop count, or addresses and CIDR ranges', () => {
    assert.equal(loadConfig({ GATEHOUSE_TRUST_PROXY: '2' }).trustProxy, 2);
    assert.equal(loadConfig({ GATEHOUSE_TRUST_PROXY: '0' }).trustProxy, false);
    assert.deepEqual(loadConfig({ GATEHOUSE_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8' }).trustProxy, ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8']);
  });

  it('accepts a 32-byte master key as hex or base64', () => {
    assert.ok(loadConfig({ GATEHOUSE_MASTER_KEY: 'ab'.repeat(32) }).masterKey);
    assert.ok(loadConfig({ GATEHOUSE_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') }).masterKey);
  });

  it('--help lists every setting', () => {
    const text = helpText();
    for (const setting of SETTINGS) assert.ok(text.includes(setting.name), setting.name);
    assert.match(text, /^ {2}GATEHOUSE_OUTBOUND_ALLOW\n/m, 'the outbound exceptions are a setting like the others');
  });

  it('reads the environment only through the settings table', () => {
    const read = new Set<string>();
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get: (_target, key) => {
        if (typeof key === 'string') read.add(key);
        return undefined;
      },
    });
    loadConfig(env);
    const documented = new Set(SETTINGS.map((s) => s.name));
    for (const name of read) assert.ok(documented.has(name), `${name} is read but not in SETTINGS`);
    const readElsewhere = SETTINGS.filter((s) => s.readBy !== undefined).map((s) => s.name);
    assert.deepEqual(
      SETTINGS.map((s) => s.name).filter((name) => !read.has(name)),
      readElsewhere,
      'every setting loadConfig does not read names where it is read',
    );
  });

  it('a value default is documented from the value the code uses', () => {
    const defaults = loadConfig({});
    const documented = (name: string) => SETTINGS.find((s) => s.name === name)?.default;
    assert.equal(documented('PORT'), `\`${defaults.port}\``);
    assert.equal(documented('GATEHOUSE_REQUEST_TIMEOUT'), `\`${defaults.requestTimeoutMs / 1000}\``);
    assert.equal(documented('GATEHOUSE_LOG_BUFFER'), `\`${defaults.tenantLogs.maxBuffered}\``);
    const { burst, perSecond } = defaults.rateLimits.management;
    assert.equal(documented('GATEHOUSE_RATE_LIMIT_MANAGEMENT'), `\`${burst}/${perSecond}\``);
    assert.match(documented('GATEHOUSE_USERS_IMPORT_MAX_BYTES') ?? '', new RegExp(`^\`${defaults.jobs.importMaxBytes}\``));
  });
});
