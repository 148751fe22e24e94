/**
 * /api/v2/guardian/factors/push-notification… through the real app and
 * database: the spec's APNs and SNS field tables and Limits (one failing and
 * the passing boundaries per rule), the shapes and status codes of
 * management-api-wire-notes §4, and secrets sealed at rest.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { apnsP12Context, snsAccessKeyIdContext, snsSecretAccessKeyContext } from '../../src/domain/guardian/model.js';
import { AWS_REGION_PATTERN } from '../../src/management/guardian/schema.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

const BASE = '/api/v2/guardian/factors/push-notification';
const APNS = `${BASE}/providers/apns`;
const SNS = `${BASE}/providers/sns`;
const SELECTED = `${BASE}/selected-provider`;

const P12_DESCRIPTION = 'Base64 encoding of the PKCS#12 (.p12) file holding the APNs client certificate and its key. Write-only.';
const SNS_DESCRIPTIONS: Record<string, string> = {
  aws_access_key_id: 'AWS access key ID.',
  aws_secret_access_key: 'AWS secret access key. Write-only: echoed by the request that sets it, never returned by GET.',
  aws_region: 'AWS region.',
  sns_apns_platform_application_arn: 'ARN of the SNS platform application for APNs (iOS).',
  sns_gcm_platform_application_arn: 'ARN of the SNS platform application for GCM/FCM (Android).',
};
const SNS_FIELDS = Object.keys(SNS_DESCRIPTIONS);
const SANDBOX_DESCRIPTION = 'Whether pushes go to the APNs sandbox (development) environment (true) or to production (false).';
const BUNDLE_ID_DESCRIPTION = 'Bundle identifier of the iOS application.';

/** Base64 of bytes shaped like a PKCS#12 file: a DER SEQUENCE with a two-byte length. */
function p12Bytes(size = 2400): Buffer {
  const body = randomBytes(size);
  return Buffer.concat([Buffer.from([0x30, 0x82, size >> 8, size & 0xff]), body]);
}

function invalidBody(message: string) {
  return { statusCode: 400, error: 'Bad Request', message, errorCode: 'invalid_body' };
}

describe('/api/v2/guardian/factors/push-notification', () => {
  let t: TestApp;
  let token: string;

  before(async () => {
    t = await createTestApp();
    token = await t.managementToken();
  });
  after(() => t.close());

  const call = (method: string, url: string, body?: unknown, headers?: Record<string, string>) =>
    t.management(method, url, { token, ...(body !== undefined && { body }), ...(headers && { headers }) });
  const form = (method: string, url: string, fields: Record<string, string>) =>
    call(method, url, new URLSearchParams(fields).toString(), { 'content-type': 'application/x-www-form-urlencoded' });

  /** The tenant's row, read directly from the table. */
  const storedRow = () =>
    t.ctx.database.db.selectFrom('guardian_push_notification').selectAll().where('tenant_id', '=', t.tenant.id).executeTakeFirst();

  /** Back to "never configured". */
  const reset = () => t.ctx.database.db.deleteFrom('guardian_push_notification').where('tenant_id', '=', t.tenant.id).execute();

  describe('before anything is configured', () => {
    before(reset);

    it('GET apns returns 200 {"enabled":false}', async () => {
      const res = await call('GET', APNS);
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, '{"enabled":false}');
      assert.match(String(res.headers['content-type']), /^application\/json/);
    });

    it('GET sns returns 200 {}', async () => {
      const res = await call('GET', SNS);
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, '{}');
    });

    it('GET selected-provider returns guardian', async () => {
      const res = await call('GET', SELECTED);
      assert.equal(res.statusCode, 200);
      assert.equal(res.body, '{"provider":"guardian"}');
    });
  });

  describe('APNs', () => {
    beforeEach(reset);

    it('PUT returns {sandbox, bundle_id} without p12; GET returns {bundle_id, sandbox, enabled:true}', async () => {
      const p12 = p12Bytes().toString('base64');
      const put = await call('PUT', APNS, { sandbox: false, bundle_id: 'com.my.app', p12 });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.body, '{"sandbox":false,"bundle_id":"com.my.app"}');
      const get = await call('GET', APNS);
      assert.equal(get.statusCode, 200);
      assert.equal(get.body, '{"bundle_id":"com.my.app","sandbox":false,"enabled":true}');
    });

    it('PUT replaces: members left out are cleared, the p12 included', async () => {
      await call('PUT', APNS, { sandbox: true, bundle_id: 'com.my.app', p12: p12Bytes().toString('base64') });
      const put = await call('PUT', APNS, { sandbox: false });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), { sandbox: false });
      assert.deepEqual((await call('GET', APNS)).json(), { sandbox: false, enabled: true });
      const row = await storedRow();
      assert.equal(row?.apns_p12_enc, null);
    });

    it('PATCH keeps absent members and clears with null', async () => {
      await call('PUT', APNS, { sandbox: false, bundle_id: 'com.my.app', p12: p12Bytes().toString('base64') });
      const sealedBefore = (await storedRow())?.apns_p12_enc;
      assert.ok(sealedBefore);

      const sandbox = await call('PATCH', APNS, { sandbox: true });
      assert.equal(sandbox.statusCode, 200, sandbox.body);
      assert.equal(sandbox.body, '{"sandbox":true,"bundle_id":"com.my.app"}');
      assert.equal((await storedRow())?.apns_p12_enc, sealedBefore, 'the p12 is kept');

      const cleared = await call('PATCH', APNS, { bundle_id: null });
      assert.equal(cleared.statusCode, 200, cleared.body);
      assert.deepEqual(cleared.json(), { sandbox: true, bundle_id: null });
      assert.deepEqual((await call('GET', APNS)).json(), { bundle_id: null, sandbox: true, enabled: true });

      const noP12 = await call('PATCH', APNS, { p12: null });
      assert.equal(noP12.statusCode, 200, noP12.body);
      assert.deepEqual(noP12.json(), { sandbox: true, bundle_id: null });
      assert.equal((await storedRow())?.apns_p12_enc, null);
    });

    it('PATCH on a tenant never configured creates the configuration', async () => {
      const res = await call('PATCH', APNS, { bundle_id: 'com.first' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { bundle_id: 'com.first' });
      assert.deepEqual((await call('GET', APNS)).json(), { bundle_id: 'com.first', enabled: true });
    });

    it('stores the p12 only sealed, bound to the tenant, and never returns it', async () => {
      const der = p12Bytes();
      const p12 = der.toString('base64');
      for (const method of ['PUT', 'PATCH']) {
        const res = await call(method, APNS, { bundle_id: 'com.sealed', p12 });
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(!res.body.includes(p12) && !res.body.includes('p12'), `${method} response carries no p12`);
        const row = await storedRow();
        assert.ok(row?.apns_p12_enc?.startsWith('v1.'));
        const raw = JSON.stringify(row);
        for (const plain of [p12, der.toString('hex'), der.toString('base64url'), p12.slice(8, 72)]) {
          assert.ok(!raw.includes(plain), 'no plaintext in the stored row');
        }
        assert.deepEqual(t.ctx.box.open(row!.apns_p12_enc!, apnsP12Context(t.tenant.id)), der);
        assert.throws(() => t.ctx.box.open(row!.apns_p12_enc!, apnsP12Context('ten_other')));
        const get = await call('GET', APNS);
        assert.ok(!get.body.includes(p12) && !get.body.includes('p12'));
      }
    });

    it('accepts a p12 wrapped in lines, as base64 tools print it, and stores the same bytes', async () => {
      const der = p12Bytes(300);
      const wrapped = der.toString('base64').replace(/(.{64})/g, '$1\n');
      const res = await call('PUT', APNS, { p12: wrapped });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(t.ctx.box.open((await storedRow())!.apns_p12_enc!, apnsP12Context(t.tenant.id)), der);
    });

    it('accepts a form body, coercing sandbox=true', async () => {
      const p12 = p12Bytes().toString('base64');
      const res = await form('PUT', APNS, { sandbox: 'true', bundle_id: 'com.form', p12 });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.body, '{"sandbox":true,"bundle_id":"com.form"}');
      const patch = await form('PATCH', APNS, { sandbox: 'false' });
      assert.equal(patch.statusCode, 200, patch.body);
      assert.deepEqual(patch.json(), { sandbox: false, bundle_id: 'com.form' });
      assert.ok((await storedRow())?.apns_p12_enc?.startsWith('v1.'));
    });

    it('bundle_id: 1 and 1000 characters pass', async () => {
      for (const bundleId of ['a', 'b'.repeat(1000)]) {
        const res = await call('PUT', APNS, { bundle_id: bundleId });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { bundle_id: bundleId });
      }
    });

    it('p12: 10000 characters pass', async () => {
      const p12 = p12Bytes(7500 - 4).toString('base64');
      assert.equal(p12.length, 10000);
      const res = await call('PATCH', APNS, { p12 });
      assert.equal(res.statusCode, 200, res.body);
    });

    const refused: [string, string, unknown, string][] = [
      [
        'sandbox of the wrong type (JSON bodies are not coerced)',
        'PUT',
        { sandbox: 'true' },
        `Payload validation error: 'Expected type boolean but found type string' on property sandbox (${SANDBOX_DESCRIPTION}).`,
      ],
      [
        'a null sandbox (boolean only, as in the OpenAPI document)',
        'PATCH',
        { sandbox: null },
        `Payload validation error: 'Expected type boolean but found type null' on property sandbox (${SANDBOX_DESCRIPTION}).`,
      ],
      [
        'a bundle_id of 0 characters',
        'PATCH',
        { bundle_id: '' },
        `Payload validation error: 'String is too short (0 chars), minimum 1' on property bundle_id (${BUNDLE_ID_DESCRIPTION}).`,
      ],
      [
        'a bundle_id of 1001 characters',
        'PUT',
        { bundle_id: 'x'.repeat(1001) },
        `Payload validation error: 'String is too long (1001 chars), maximum 1000' on property bundle_id (${BUNDLE_ID_DESCRIPTION}).`,
      ],
      [
        'a bundle_id of the wrong type',
        'PATCH',
        { bundle_id: 7 },
        `Payload validation error: 'Expected type string,null but found type integer' on property bundle_id (${BUNDLE_ID_DESCRIPTION}).`,
      ],
      [
        'a p12 that is not base64',
        'PUT',
        { bundle_id: 'com.x', p12: 'not base64!' },
        `Payload validation error: 'String is not base64' on property p12 (${P12_DESCRIPTION}).`,
      ],
      [
        'a p12 in base64url',
        'PATCH',
        { p12: p12Bytes().toString('base64url').replace(/^(.)/, '_') },
        `Payload validation error: 'String is not base64' on property p12 (${P12_DESCRIPTION}).`,
      ],
      [
        'a p12 with a data: URI prefix',
        'PUT',
        { p12: `data:application/x-pkcs12;base64,${p12Bytes().toString('base64')}` },
        `Payload validation error: 'String is not base64' on property p12 (${P12_DESCRIPTION}).`,
      ],
      [
        'a p12 whose padding is misplaced',
        'PUT',
        { p12: 'MIIB=Q==' },
        `Payload validation error: 'String is not base64' on property p12 (${P12_DESCRIPTION}).`,
      ],
      [
        'a p12 that is base64 of something else (a PEM file)',
        'PUT',
        { p12: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64') },
        `Payload validation error: 'Base64 data is not a PKCS#12 file' on property p12 (${P12_DESCRIPTION}).`,
      ],
      [
        'a p12 of 0 characters',
        'PATCH',
        { p12: '' },
        `Payload validation error: 'String is too short (0 chars), minimum 1' on property p12 (${P12_DESCRIPTION}).`,
      ],
      [
        'a p12 of 10001 characters',
        'PUT',
        { p12: 'A'.repeat(10001) },
        `Payload validation error: 'String is too long (10001 chars), maximum 10000' on property p12 (${P12_DESCRIPTION}).`,
      ],
      ['an unknown property', 'PUT', { bundle_id: 'com.x', foo: 1 }, "Payload validation error: 'Additional properties not allowed: foo'."],
      ['two unknown properties', 'PATCH', { foo: 1, bar: 2 }, "Payload validation error: 'Additional properties not allowed: foo,bar'."],
      ['enabled, which only GET returns', 'PATCH', { enabled: true }, "Payload validation error: 'Additional properties not allowed: enabled'."],
      ['a body that is not an object', 'PUT', [], "Payload validation error: 'Expected type object but found type array'."],
    ];
    for (const [name, method, body, message] of refused) {
      it(`${method} refuses ${name} with 400 invalid_body and writes nothing`, async () => {
        await call('PUT', APNS, { sandbox: true, bundle_id: 'com.kept' });
        const before = await storedRow();
        const res = await call(method, APNS, body);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), invalidBody(message));
        assert.deepEqual(await storedRow(), before);
      });
    }

    it('refuses a form body with sandbox=yes (only "true" and "false" are converted)', async () => {
      const res = await form('PUT', APNS, { sandbox: 'yes' });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(
        res.json(),
        invalidBody(`Payload validation error: 'Expected type boolean but found type string' on property sandbox (${SANDBOX_DESCRIPTION}).`),
      );
    });

    it('refuses a valid member together with a bad p12 without writing the valid one', async () => {
      await call('PUT', APNS, { bundle_id: 'com.kept' });
      const res = await call('PATCH', APNS, { bundle_id: 'com.changed', p12: '%%%%' });
      assert.equal(res.statusCode, 400);
      assert.deepEqual((await call('GET', APNS)).json(), { bundle_id: 'com.kept', enabled: true });
    });
  });

  describe('SNS', () => {
    beforeEach(reset);

    const full = {
      aws_access_key_id: 'AKIAEXAMPLEKEYID0001',
      aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      aws_region: 'us-west-1',
      sns_apns_platform_application_arn: 'arn:aws:sns:us-west-1:123456789012:app/APNS/gatehouse',
      sns_gcm_platform_application_arn: 'arn:aws:sns:us-west-1:123456789012:app/GCM/gatehouse',
    };

    it('PUT echoes the body, secret included; GET omits aws_secret_access_key', async () => {
      const put = await call('PUT', SNS, full);
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.body, JSON.stringify(full));
      const get = await call('GET', SNS);
      assert.equal(get.statusCode, 200);
      const { aws_secret_access_key: _secret, ...readable } = full;
      assert.equal(get.body, JSON.stringify(readable));
      assert.ok(!get.body.includes(full.aws_secret_access_key));
    });

    it('PUT without the secret returns a body without it and clears the stored one', async () => {
      await call('PUT', SNS, full);
      const { aws_secret_access_key: _secret, ...rest } = full;
      const put = await call('PUT', SNS, rest);
      assert.equal(put.statusCode, 200, put.body);
      assert.equal(put.body, JSON.stringify(rest));
      assert.equal((await storedRow())?.sns_secret_access_key_enc, null);
    });

    it('PUT replaces: members left out are cleared', async () => {
      await call('PUT', SNS, full);
      const put = await call('PUT', SNS, { aws_region: 'eu-west-1' });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(put.json(), { aws_region: 'eu-west-1' });
      assert.deepEqual((await call('GET', SNS)).json(), { aws_region: 'eu-west-1' });
      const row = await storedRow();
      assert.equal(row?.sns_secret_access_key_enc, null);
    });

    it('PATCH keeps absent members, clears with null, and echoes the secret only when sent', async () => {
      await call('PUT', SNS, full);
      const { aws_secret_access_key: secret, ...readable } = full;

      const region = await call('PATCH', SNS, { aws_region: 'ap-southeast-2' });
      assert.equal(region.statusCode, 200, region.body);
      assert.deepEqual(region.json(), { ...readable, aws_region: 'ap-southeast-2' });
      assert.ok(!region.body.includes(secret), 'a PATCH that did not send the secret does not read it back');

      const newSecret = 'another/secret+value';
      const rotated = await call('PATCH', SNS, { aws_secret_access_key: newSecret });
      assert.equal(rotated.statusCode, 200, rotated.body);
      assert.deepEqual(rotated.json(), { ...readable, aws_region: 'ap-southeast-2', aws_secret_access_key: newSecret });
      const row = await storedRow();
      assert.equal(t.ctx.box.openString(row!.sns_secret_access_key_enc!, snsSecretAccessKeyContext(t.tenant.id)), newSecret);

      const cleared = await call('PATCH', SNS, { sns_gcm_platform_application_arn: null, aws_access_key_id: null });
      assert.equal(cleared.statusCode, 200, cleared.body);
      const expected = { ...readable, aws_region: 'ap-southeast-2', aws_access_key_id: null, sns_gcm_platform_application_arn: null };
      assert.deepEqual(cleared.json(), expected);
      assert.deepEqual((await call('GET', SNS)).json(), expected);
      assert.ok((await storedRow())?.sns_secret_access_key_enc, 'the secret is kept');

      const noSecret = await call('PATCH', SNS, { aws_secret_access_key: null });
      assert.equal(noSecret.statusCode, 200, noSecret.body);
      assert.equal((noSecret.json() as Record<string, unknown>).aws_secret_access_key, null);
      assert.equal((await storedRow())?.sns_secret_access_key_enc, null);
    });

    it('stores both AWS credentials only sealed, bound to the tenant', async () => {
      await call('PUT', SNS, full);
      const row = await storedRow();
      const raw = JSON.stringify(row);
      assert.ok(!raw.includes(full.aws_secret_access_key), 'no plaintext secret key');
      assert.ok(!raw.includes(full.aws_access_key_id), 'no plaintext access key id');
      assert.ok(raw.includes(full.sns_apns_platform_application_arn), 'the ARNs are stored as they are');
      assert.equal(
        t.ctx.box.openString(row!.sns_secret_access_key_enc!, snsSecretAccessKeyContext(t.tenant.id)),
        full.aws_secret_access_key,
      );
      const sns = JSON.parse(row!.sns!) as { aws_access_key_id_enc: string };
      assert.equal(t.ctx.box.openString(sns.aws_access_key_id_enc, snsAccessKeyIdContext(t.tenant.id)), full.aws_access_key_id);
      assert.throws(() => t.ctx.box.open(row!.sns_secret_access_key_enc!, snsSecretAccessKeyContext('ten_other')));
    });

    it('accepts a form body', async () => {
      const res = await form('PUT', SNS, { aws_region: 'eu-central-1', aws_access_key_id: 'AKIAFORM' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { aws_access_key_id: 'AKIAFORM', aws_region: 'eu-central-1' });
    });

    for (const field of SNS_FIELDS.filter((f) => f !== 'aws_region')) {
      it(`${field}: 1 and 1000 characters pass`, async () => {
        for (const value of ['a', 'z'.repeat(1000)]) {
          const res = await call('PATCH', SNS, { [field]: value });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal((res.json() as Record<string, unknown>)[field], value);
        }
      });
    }

    const regions = [
      'us-east-1',
      'us-east-12',
      'us-west-2',
      'ap-southeast-1',
      'ap-northeast-3',
      'ap-central-1',
      'eu-west-3',
      'eu-central-1',
      'eu-central-99',
    ];
    it(`aws_region: every family of the spec's pattern passes (${regions.join(', ')})`, async () => {
      for (const aws_region of regions) {
        const res = await call('PATCH', SNS, { aws_region });
        assert.equal(res.statusCode, 200, `${aws_region}: ${res.body}`);
        assert.deepEqual(res.json(), { aws_region });
      }
    });

    const on = (field: string) => `on property ${field} (${SNS_DESCRIPTIONS[field]})`;
    const refused: [string, unknown, string][] = [];
    for (const field of SNS_FIELDS) {
      refused.push(
        [`${field} of 0 characters`, { [field]: '' }, `Payload validation error: 'String is too short (0 chars), minimum 1' ${on(field)}.`],
        [
          `${field} of 1001 characters`,
          { [field]: 'x'.repeat(1001) },
          `Payload validation error: 'String is too long (1001 chars), maximum 1000' ${on(field)}.`,
        ],
        [
          `${field} of the wrong type`,
          { [field]: 42 },
          `Payload validation error: 'Expected type string,null but found type integer' ${on(field)}.`,
        ],
      );
    }
    for (const region of ['eu-north-1', 'us-east-100', 'US-EAST-1', 'us-east-1 ', 'sa-east-1', 'us-gov-west-1']) {
      refused.push([
        `aws_region ${JSON.stringify(region)}`,
        { aws_region: region },
        `Payload validation error: 'String does not match pattern ${AWS_REGION_PATTERN}: ${region}' ${on('aws_region')}.`,
      ]);
    }
    refused.push(
      ['an unknown property', { aws_region: 'us-east-1', foo: 1 }, "Payload validation error: 'Additional properties not allowed: foo'."],
      ['a boolean for a string', { aws_access_key_id: true }, `Payload validation error: 'Expected type string,null but found type boolean' ${on('aws_access_key_id')}.`],
    );
    for (const [name, body, message] of refused) {
      for (const method of ['PUT', 'PATCH']) {
        it(`${method} refuses ${name} with 400 invalid_body and writes nothing`, async () => {
          await call('PUT', SNS, { aws_region: 'us-east-1', aws_access_key_id: 'AKIAKEPT' });
          const before = await storedRow();
          const res = await call(method, SNS, body);
          assert.equal(res.statusCode, 400, res.body);
          assert.deepEqual(res.json(), invalidBody(message));
          assert.deepEqual(await storedRow(), before);
        });
      }
    }

    it('the region pattern is the spec\'s', () => {
      assert.equal(
        AWS_REGION_PATTERN,
        '^(?:us-east-[0-9]{1,2}|us-west-[0-9]{1,2}|ap-southeast-[0-9]{1,2}|ap-northeast-[0-9]{1,2}|ap-central-[0-9]{1,2}|eu-west-[0-9]{1,2}|eu-central-[0-9]{1,2})$',
      );
    });
  });

  describe('no GET ever returns a secret', () => {
    before(reset);

    it('after configuring both providers, no GET body carries the p12 or the AWS secret key', async () => {
      const p12 = p12Bytes().toString('base64');
      const secret = 'SECRET/never+returned/0123456789';
      assert.equal((await call('PUT', APNS, { sandbox: true, bundle_id: 'com.x', p12 })).statusCode, 200);
      assert.equal((await call('PUT', SNS, { aws_secret_access_key: secret, aws_region: 'us-east-1' })).statusCode, 200);
      assert.equal((await call('PATCH', APNS, { sandbox: false })).statusCode, 200);
      assert.equal((await call('PATCH', SNS, { aws_region: 'us-east-2' })).statusCode, 200);
      for (const url of [APNS, SNS, SELECTED]) {
        const res = await call('GET', url);
        assert.equal(res.statusCode, 200);
        for (const needle of [p12, p12.slice(0, 40), secret, 'p12', 'aws_secret_access_key']) {
          assert.ok(!res.body.includes(needle), `GET ${url} leaks ${needle.slice(0, 20)}`);
        }
      }
    });
  });

  describe('selected provider', () => {
    before(reset);

    it('PUT {provider} returns {provider}; GET returns it; each of guardian, sns, direct', async () => {
      for (const provider of ['sns', 'direct', 'guardian']) {
        const put = await call('PUT', SELECTED, { provider });
        assert.equal(put.statusCode, 200, put.body);
        assert.equal(put.body, JSON.stringify({ provider }));
        assert.equal((await call('GET', SELECTED)).body, JSON.stringify({ provider }));
      }
    });

    it('accepts a form body', async () => {
      const res = await form('PUT', SELECTED, { provider: 'sns' });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json(), { provider: 'sns' });
    });

    it('keeps the provider configurations when the selection changes', async () => {
      await call('PUT', APNS, { bundle_id: 'com.kept' });
      await call('PUT', SELECTED, { provider: 'direct' });
      assert.deepEqual((await call('GET', APNS)).json(), { bundle_id: 'com.kept', enabled: true });
    });

    const description = 'The provider that delivers push notifications: guardian, sns or direct.';
    const refused: [string, unknown, string][] = [
      ['an unknown provider', { provider: 'fcm' }, `Payload validation error: 'No enum match for: fcm' on property provider (${description}).`],
      ['a missing provider', {}, "Payload validation error: 'Missing required property: provider'."],
      ['a null provider', { provider: null }, `Payload validation error: 'Expected type string but found type null' on property provider (${description}).`],
      ['an unknown property', { provider: 'sns', foo: 1 }, "Payload validation error: 'Additional properties not allowed: foo'."],
    ];
    for (const [name, body, message] of refused) {
      it(`refuses ${name} with 400 invalid_body`, async () => {
        const res = await call('PUT', SELECTED, body);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), invalidBody(message));
      });
    }
  });

  describe('the factor', () => {
    before(reset);

    it('PUT {enabled} returns {enabled}, as JSON and as a form; the factor is listed as set', async () => {
      const off = await form('PUT', BASE, { enabled: 'false' });
      assert.equal(off.statusCode, 200, off.body);
      assert.equal(off.body, '{"enabled":false}');
      const on = await call('PUT', BASE, { enabled: true });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.body, '{"enabled":true}');
      let factors = (await call('GET', '/api/v2/guardian/factors')).json() as { name: string; enabled: boolean }[];
      assert.equal(factors.find((f) => f.name === 'push-notification')?.enabled, true);
      await call('PUT', BASE, { enabled: false });
      factors = (await call('GET', '/api/v2/guardian/factors')).json() as { name: string; enabled: boolean }[];
      assert.equal(factors.find((f) => f.name === 'push-notification')?.enabled, false);
    });

    it('enabling duo is accepted (Duo\'s Universal Prompt, test/authentication/mfa-duo.test.ts) and leaves push alone', async () => {
      const on = await call('PUT', '/api/v2/guardian/factors/duo', { enabled: true });
      assert.equal(on.statusCode, 200, on.body);
      assert.deepEqual(on.json(), { enabled: true });
      const factors = (await call('GET', '/api/v2/guardian/factors')).json() as { name: string; enabled: boolean }[];
      assert.equal(factors.find((f) => f.name === 'duo')?.enabled, true);
      assert.equal((await call('PUT', '/api/v2/guardian/factors/duo', { enabled: false })).statusCode, 200);
    });

    it('keeps the provider configurations and selection', async () => {
      await call('PUT', SNS, { aws_region: 'us-east-1' });
      await call('PUT', SELECTED, { provider: 'sns' });
      await call('PUT', BASE, { enabled: false });
      assert.deepEqual((await call('GET', SNS)).json(), { aws_region: 'us-east-1' });
      assert.deepEqual((await call('GET', SELECTED)).json(), { provider: 'sns' });
    });

    const description = 'Whether this factor is enabled (true) or disabled (false).';
    const refused: [string, unknown, string][] = [
      ['a string for enabled (JSON bodies are not coerced)', { enabled: 'true' }, `Payload validation error: 'Expected type boolean but found type string' on property enabled (${description}).`],
      ['a missing enabled', {}, "Payload validation error: 'Missing required property: enabled'."],
      ['an unknown property', { enabled: true, provider: 'sns' }, "Payload validation error: 'Additional properties not allowed: provider'."],
    ];
    for (const [name, body, message] of refused) {
      it(`refuses ${name} with 400 invalid_body`, async () => {
        const res = await call('PUT', BASE, body);
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), invalidBody(message));
      });
    }
  });

  describe('requests refused before the body is read', () => {
    const writes: [string, string, unknown][] = [
      ['PUT', APNS, { sandbox: true }],
      ['PATCH', APNS, { sandbox: true }],
      ['PUT', SNS, { aws_region: 'us-east-1' }],
      ['PATCH', SNS, { aws_region: 'us-east-1' }],
      ['PUT', SELECTED, { provider: 'sns' }],
      ['PUT', BASE, { enabled: true }],
    ];
    const reads = [APNS, SNS, SELECTED];

    for (const [method, url] of writes) {
      it(`${method} ${url.slice(BASE.length) || '/'}: malformed JSON → 400, another media type → 415, no body → 400`, async () => {
        const bad = await call(method, url, '{"sandbox":');
        assert.equal(bad.statusCode, 400);
        assert.deepEqual(bad.json(), { statusCode: 400, error: 'Bad Request', message: 'Invalid request payload JSON format' });
        const xml = await call(method, url, '<x/>', { 'content-type': 'application/xml' });
        assert.equal(xml.statusCode, 415);
        assert.deepEqual(xml.json(), { statusCode: 415, error: 'Unsupported Media Type', message: 'Unsupported Media Type' });
        const none = await call(method, url);
        assert.equal(none.statusCode, 400);
        assert.deepEqual(none.json(), invalidBody("Payload validation error: 'Expected type object but found type null'."));
      });
    }

    for (const [method, url, body] of [...writes, ...reads.map((url) => ['GET', url, undefined] as const)]) {
      it(`${method} ${url.slice(BASE.length) || '/'}: 401 without a token`, async () => {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: { host: DOMAIN, ...(body !== undefined && { 'content-type': 'application/json' }) },
          ...(body !== undefined && { payload: JSON.stringify(body) }),
        });
        assert.equal(res.statusCode, 401);
        assert.deepEqual(res.json(), { statusCode: 401, error: 'Unauthorized', message: 'Missing authentication' });
      });
    }

    it('403 for writes with a token holding only read:guardian_factors, and nothing written', async () => {
      await reset();
      const readOnly = await t.managementToken('read:guardian_factors');
      for (const [method, url, body] of writes) {
        const res = await t.management(method, url, { token: readOnly, body });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.deepEqual(res.json(), {
          statusCode: 403,
          error: 'Forbidden',
          message: 'Insufficient scope, expected any of: update:guardian_factors',
          errorCode: 'insufficient_scope',
        });
      }
      assert.equal(await storedRow(), undefined);
      for (const url of reads) {
        assert.equal((await t.management('GET', url, { token: readOnly })).statusCode, 200);
      }
    });

    it('403 for reads with a token holding only update:guardian_factors', async () => {
      const writeOnly = await t.managementToken('update:guardian_factors');
      for (const url of reads) {
        const res = await t.management('GET', url, { token: writeOnly });
        assert.equal(res.statusCode, 403, url);
        assert.deepEqual(res.json(), {
          statusCode: 403,
          error: 'Forbidden',
          message: 'Insufficient scope, expected any of: read:guardian_factors',
          errorCode: 'insufficient_scope',
        });
      }
      const put = await t.management('PUT', SELECTED, { token: writeOnly, body: { provider: 'direct' } });
      assert.equal(put.statusCode, 200, put.body);
    });
  });
});
