/**
 * Network ACL rules by country, subdivision and autonomous system, driven by
 * the official `auth0` SDK over real HTTPS against the built server started
 * with GATEHOUSE_GEOIP_DB and GATEHOUSE_ASN_DB (MaxMind's test
 * databases, test/fixtures/geoip/) behind a trusted proxy (the loopback, so
 * `X-Forwarded-For` gives the end user's address): /authorize and
 * /oauth/token refuse the addresses the databases place in a blocked
 * country, subdivision or network and let the others through; badly formed
 * codes are refused with 400 naming the property. A server given a database
 * of the wrong kind does not start, and names the setting.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/server-process.js';
import { httpsRequest, type HttpResult } from './support/https.js';
import { adminManagementClient } from './support/sdk-client.js';
import { sdkError } from './support/sdk-error.js';
import { tracked } from './support/tracked.js';

const { start } = tracked();
const FIXTURES = path.join(ROOT, 'test/fixtures/geoip');
const CALLBACK = 'https://rp.example.com/callback';

describe('network ACLs by country, subdivision and ASN (MaxMind databases)', () => {
  it('blocks by the databases\' answer at /authorize and /oauth/token; refuses malformed codes', async () => {
    const server = await start({
      env: {
        GATEHOUSE_GEOIP_DB: path.join(FIXTURES, 'GeoLite2-City-Test.mmdb'),
        GATEHOUSE_ASN_DB: path.join(FIXTURES, 'GeoLite2-ASN-Test.mmdb'),
        GATEHOUSE_TRUST_PROXY: '127.0.0.1,::1',
        GATEHOUSE_RATE_LIMIT_MANAGEMENT: '100000/100000',
      },
    });
    const ca = fs.readFileSync(server.certFile);
    const management = adminManagementClient(server);
    const client = await management.clients.create({ name: 'RP', app_type: 'regular_web', token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code', 'client_credentials'] });
    const authorizeFrom = (ip: string): Promise<HttpResult> => {
      const query = new URLSearchParams({ client_id: client.client_id!, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 'st' });
      return httpsRequest(`${server.baseUrl}/authorize?${query}`, { ca, method: 'GET', headers: { 'x-forwarded-for': ip } });
    };
    const tokenFrom = (ip: string): Promise<HttpResult> =>
      httpsRequest(`${server.baseUrl}/oauth/token`, {
        ca,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret, audience: 'https://nothing.example.com' }),
      });
    const blocked = (res: HttpResult, what: string) => {
      assert.equal(res.status, 403, `${what}: ${res.text.slice(0, 300)}`);
      assert.deepEqual(res.json(), { error: 'access_denied', error_description: 'Access denied by the tenant network access control list' });
    };
    const passes = (res: HttpResult, what: string) => assert.ok(!res.text.includes('network access control list'), `${what}: ${res.status} ${res.text.slice(0, 300)}`);

    // 81.2.69.142 is in GB-ENG, 216.160.83.56 in US-WA, 89.160.20.112 in SE, 1.0.0.1 in AS 15169 (and no country);
    // 198.51.100.1 is in neither database.
    for (const ip of ['81.2.69.142', '216.160.83.56', '89.160.20.112', '1.0.0.1', '198.51.100.1']) passes(await authorizeFrom(ip), ip);

    await management.networkAcls.create({ description: 'no logins from GB', active: true, priority: 10, rule: { action: { block: true }, match: { geo_country_codes: ['GB'] }, scope: 'authentication' } });
    blocked(await authorizeFrom('81.2.69.142'), 'GB at /authorize');
    blocked(await tokenFrom('81.2.69.142'), 'GB at /oauth/token');
    passes(await authorizeFrom('216.160.83.56'), 'US');
    passes(await tokenFrom('198.51.100.1'), 'an address in no database');

    await management.networkAcls.create({ description: 'not from Washington', active: true, priority: 20, rule: { action: { block: true }, match: { geo_subdivision_codes: ['US-WA'] }, scope: 'tenant' } });
    blocked(await authorizeFrom('216.160.83.56'), 'US-WA');
    passes(await authorizeFrom('89.160.20.112'), 'SE');

    await management.networkAcls.create({ description: 'a network sent elsewhere', active: true, priority: 30, rule: { action: { redirect: true, redirect_uri: 'https://elsewhere.example.com/' }, match: { asns: [15169] }, scope: 'authentication' } });
    const sent = await authorizeFrom('1.0.0.1');
    assert.equal(sent.status, 302, sent.text);
    assert.equal(sent.headers.location, 'https://elsewhere.example.com/');
    passes(await authorizeFrom('1.128.0.1'), 'AS 1221');

    // Read back as written.
    const rules = (await management.networkAcls.list()).data;
    assert.deepEqual(rules.map((r) => r.rule?.match), [{ geo_country_codes: ['GB'] }, { geo_subdivision_codes: ['US-WA'] }, { asns: [15169] }]);

    const refusals: [string, Record<string, unknown>][] = [
      ['rule.match.geo_country_codes[0]', { geo_country_codes: ['GBR'] }],
      ['rule.match.geo_subdivision_codes[1]', { geo_subdivision_codes: ['US-WA', 'ENG'] }],
      ['rule.match.ja3_fingerprints', { ja3_fingerprints: ['abc'] }],
    ];
    for (const [property, match] of refusals) {
      const error = await sdkError(() => management.networkAcls.create({ description: 'x', active: true, priority: 60, rule: { action: { block: true }, match, scope: 'authentication' } }));
      assert.equal(error.statusCode, 400, property);
      assert.equal(error.body.errorCode, 'invalid_body', property);
      assert.ok(error.body.message.includes(`on property ${property}`), `${property}: ${error.body.message}`);
    }
    assert.equal((await management.networkAcls.list()).data.length, 3, 'a refused rule was stored');
  });

  it('does not start with a database of the wrong kind, and names the setting', async () => {
    await assert.rejects(
      start({ env: { GATEHOUSE_GEOIP_DB: path.join(FIXTURES, 'GeoLite2-ASN-Test.mmdb') } }),
      (error: Error) => /exited with 1 before listening/.test(error.message) && /GATEHOUSE_GEOIP_DB: .*GeoLite2-ASN database; expected City\|Country/.test(error.message),
    );
  });
});
