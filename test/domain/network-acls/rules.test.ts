/**
 * Network ACL evaluation (src/domain/network-acls/rules.ts) against a store
 * held in memory: priority order, first decision wins, log rules go on,
 * scopes, AND across signals and OR within one (the two address lists as
 * one), not_match, IPv4-mapped addresses, inactive rules, the cache
 * until invalidated, and countries, subdivisions and ASNs read from MaxMind's
 * test databases (looked up once per request, and only when a rule asks).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NetworkAcls, parseCidr, type AclRequest } from '../../../src/domain/network-acls/rules.js';
import type { NetworkAclRow, NetworkAclRule } from '../../../src/domain/network-acls/rows.js';
import type { NetworkAclStore } from '../../../src/domain/network-acls/store.js';
import { openGeoDatabases, type GeoLookup } from '../../../src/platform/geoip.js';

const TENANT = 'ten_1';

function memoryStore(rows: NetworkAclRow[]): NetworkAclStore & { reads: number } {
  return {
    reads: 0,
    async list(tenantId) {
      this.reads++;
      return rows.filter((r) => r.tenant_id === tenantId).sort((a, b) => a.priority - b.priority);
    },
    async get(tenantId, id) {
      return rows.find((r) => r.tenant_id === tenantId && r.id === id);
    },
    async insert(row) {
      rows.push(row);
    },
    async replace() {
      return false;
    },
    async delete() {
      return false;
    },
  };
}

let n = 0;
const acl = (priority: number, rule: NetworkAclRule, active = 1): NetworkAclRow => ({
  tenant_id: TENANT,
  id: `acl_${String(++n).padStart(22, '0')}`,
  description: `rule ${priority}`,
  active,
  priority,
  rule,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const request = (ip: string, extra: Partial<AclRequest> = {}): AclRequest => ({ ip, connectingIp: '127.0.0.1', userAgent: 'ua/1', hostname: 'login.example.com', scope: 'authentication', ...extra });

describe('network ACL evaluation', () => {
  it('takes the first triggering rule by priority; log rules are recorded and evaluation goes on', async () => {
    const log = acl(1, { action: { log: true }, match: { ipv4_cidrs: ['0.0.0.0/0'] }, scope: 'tenant' });
    const allow = acl(10, { action: { allow: true }, match: { ipv4_cidrs: ['203.0.113.7'] }, scope: 'authentication' });
    const block = acl(20, { action: { block: true }, match: { ipv4_cidrs: ['203.0.113.0/24'] }, scope: 'authentication' });
    const acls = new NetworkAcls(memoryStore([block, allow, log]), () => 0);
    const allowed = await acls.evaluate(TENANT, request('203.0.113.7'));
    assert.equal(allowed.decision?.acl.id, allow.id);
    assert.deepEqual(allowed.logged.map((r) => r.id), [log.id]);
    assert.equal((await acls.evaluate(TENANT, request('203.0.113.8'))).decision?.action, 'block');
    // The IPv4-mapped form a dual-stack listener reports is the same address.
    assert.equal((await acls.evaluate(TENANT, request('::ffff:203.0.113.8'))).decision?.action, 'block');
    const outside = await acls.evaluate(TENANT, request('198.51.100.1'));
    assert.equal(outside.decision, undefined);
    assert.equal(outside.logged.length, 1);
    // Scope: an authentication rule does not apply to the Management API.
    assert.equal((await acls.evaluate(TENANT, request('203.0.113.8', { scope: 'management' }))).decision, undefined);
  });

  it('needs every signal named (the address lists count as one) and none of not_match; ignores inactive rules', async () => {
    const both = acl(1, { action: { block: true }, match: { ipv4_cidrs: ['192.0.2.0/24'], ipv6_cidrs: ['2001:db8::/32'], user_agents: ['bad/1'] }, scope: 'tenant' });
    const notMatch = acl(2, { action: { redirect: true, redirect_uri: 'https://away.example.com' }, match: { hostnames: ['LOGIN.example.com'] }, not_match: { connecting_ipv4_cidrs: ['127.0.0.0/8'] }, scope: 'authentication' });
    const inactive = acl(3, { action: { block: true }, match: { ipv4_cidrs: ['0.0.0.0/0'] }, scope: 'tenant' }, 0);
    const acls = new NetworkAcls(memoryStore([both, notMatch, inactive]), () => 0);
    assert.equal((await acls.evaluate(TENANT, request('192.0.2.1', { userAgent: 'bad/1' }))).decision?.acl.id, both.id);
    assert.equal((await acls.evaluate(TENANT, request('2001:db8::5', { userAgent: 'bad/1' }))).decision?.acl.id, both.id);
    assert.equal((await acls.evaluate(TENANT, request('192.0.2.1', { userAgent: 'good/1' }))).decision, undefined);
    // The peer is loopback: not_match fails, so the redirect rule does not trigger; from elsewhere it does.
    assert.equal((await acls.evaluate(TENANT, request('198.51.100.1'))).decision, undefined);
    const away = await acls.evaluate(TENANT, request('198.51.100.1', { connectingIp: '10.0.0.1' }));
    assert.deepEqual(away.decision?.action === 'redirect' && away.decision.redirectUri, 'https://away.example.com');
  });

  it('caches a tenant\'s rules until invalidated', async () => {
    const rows: NetworkAclRow[] = [];
    const store = memoryStore(rows);
    const acls = new NetworkAcls(store, () => 0);
    assert.equal((await acls.evaluate(TENANT, request('203.0.113.1'))).decision, undefined);
    rows.push(acl(5, { action: { block: true }, match: { ipv4_cidrs: ['203.0.113.0/24'] }, scope: 'tenant' }));
    assert.equal((await acls.evaluate(TENANT, request('203.0.113.1'))).decision, undefined, 'cached');
    assert.equal(store.reads, 1);
    acls.invalidate(TENANT);
    assert.equal((await acls.evaluate(TENANT, request('203.0.113.1'))).decision?.action, 'block');
  });

  it('matches countries, ISO 3166-2 subdivisions and ASNs from the geolocation databases, looked up once per request', async () => {
    const fixtures = new URL('../../fixtures/geoip/', import.meta.url).pathname;
    const opened = await openGeoDatabases({ database: `${fixtures}GeoLite2-City-Test.mmdb`, asnDatabase: `${fixtures}GeoLite2-ASN-Test.mmdb` });
    assert.ok(opened);
    const lookups: string[] = [];
    const geo: GeoLookup = { ...opened, lookup: (ip) => (lookups.push(ip), opened.lookup(ip)) };
    const country = acl(1, { action: { block: true }, match: { geo_country_codes: ['gb'] }, scope: 'authentication' });
    const subdivision = acl(2, { action: { block: true }, match: { geo_subdivision_codes: ['US-WA'], user_agents: ['ua/1'] }, scope: 'authentication' });
    const asn = acl(3, { action: { redirect: true, redirect_uri: 'https://asn.example.com' }, match: { asns: [15169] }, scope: 'authentication' });
    const onlySweden = acl(4, { action: { block: true }, not_match: { geo_country_codes: ['SE'] }, match: { ipv4_cidrs: ['0.0.0.0/0'] }, scope: 'management' });
    const acls = new NetworkAcls(memoryStore([country, subdivision, asn, onlySweden]), () => 0, geo);
    assert.equal((await acls.evaluate(TENANT, request('81.2.69.142'))).decision?.acl.id, country.id);
    assert.equal((await acls.evaluate(TENANT, request('::ffff:2.125.160.216'))).decision?.acl.id, country.id);
    assert.equal((await acls.evaluate(TENANT, request('216.160.83.56'))).decision?.acl.id, subdivision.id);
    // Every signal of a rule must match: US-WA with another user agent passes.
    assert.equal((await acls.evaluate(TENANT, request('216.160.83.56', { userAgent: 'other/2' }))).decision, undefined);
    const viaAsn = await acls.evaluate(TENANT, request('1.0.0.1'));
    assert.equal(viaAsn.decision?.action === 'redirect' && viaAsn.decision.redirectUri, 'https://asn.example.com');
    // An address the databases do not hold is in no country: it passes the country rules and fails not_match's.
    assert.equal((await acls.evaluate(TENANT, request('198.51.100.1'))).decision, undefined);
    assert.equal((await acls.evaluate(TENANT, request('198.51.100.1', { scope: 'management' }))).decision?.acl.id, onlySweden.id);
    assert.equal((await acls.evaluate(TENANT, request('89.160.20.112', { scope: 'management' }))).decision, undefined);
    assert.equal((await acls.evaluate(TENANT, request('81.2.69.142', { scope: 'management' }))).decision?.acl.id, onlySweden.id);
    // One lookup per request, however many rules read it.
    assert.equal(lookups.filter((ip) => ip === '198.51.100.1').length, 2);

    // Rules that name no geolocation signal never look the address up.
    lookups.length = 0;
    const plain = new NetworkAcls(memoryStore([acl(5, { action: { block: true }, match: { ipv4_cidrs: ['203.0.113.0/24'] }, scope: 'tenant' })]), () => 0, geo);
    assert.equal((await plain.evaluate(TENANT, request('203.0.113.1'))).decision?.action, 'block');
    assert.deepEqual(lookups, []);
  });

  it('parses addresses and ranges of the family only', () => {
    assert.deepEqual(parseCidr('10.0.0.0/8', 'ipv4'), { address: '10.0.0.0', prefix: 8 });
    assert.deepEqual(parseCidr('10.0.0.1', 'ipv4'), { address: '10.0.0.1', prefix: 32 });
    assert.deepEqual(parseCidr('2001:db8::/32', 'ipv6'), { address: '2001:db8::', prefix: 32 });
    for (const [value, family] of [['10.0.0.0/33', 'ipv4'], ['10.0.0.0/8', 'ipv6'], ['::1/129', 'ipv6'], ['10.0.0.0/08x', 'ipv4'], ['10.0.0.0/8/8', 'ipv4'], ['', 'ipv4']] as const) {
      assert.equal(parseCidr(value, family), undefined, value);
    }
  });
});
