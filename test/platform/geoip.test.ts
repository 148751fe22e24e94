/**
 * The operator's MaxMind databases (src/platform/geoip.ts), read from
 * MaxMind's own test databases (test/fixtures/geoip/): country, ISO 3166-2
 * subdivisions, ASN, IPv4-mapped addresses, addresses the databases do not
 * hold, and the refusal of a file that is not a database of its kind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openGeoDatabases } from '../../src/platform/geoip.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/geoip');
const CITY_DB = path.join(FIXTURES, 'GeoLite2-City-Test.mmdb');
const COUNTRY_DB = path.join(FIXTURES, 'GeoLite2-Country-Test.mmdb');
const ASN_DB = path.join(FIXTURES, 'GeoLite2-ASN-Test.mmdb');

describe('geolocation databases', () => {
  it('answers nothing, and opens nothing, when neither setting is given', async () => {
    assert.equal(await openGeoDatabases({ database: undefined, asnDatabase: undefined }), undefined);
  });

  it('gives country, ISO 3166-2 subdivisions, city and ASN of an address', async () => {
    const geo = await openGeoDatabases({ database: CITY_DB, asnDatabase: ASN_DB });
    assert.ok(geo);
    assert.deepEqual([geo.location, geo.asn], [true, true]);
    const london = geo.lookup('81.2.69.142');
    assert.equal(london?.countryCode, 'GB');
    assert.deepEqual(london?.subdivisionCodes, ['GB-ENG']);
    assert.equal(london?.cityName, 'London');
    assert.equal(london?.continentCode, 'EU');
    assert.equal(london?.timeZone, 'Europe/London');
    assert.deepEqual(geo.lookup('2.125.160.216')?.subdivisionCodes, ['GB-ENG', 'GB-WBK']);
    assert.deepEqual(geo.lookup('216.160.83.56')?.subdivisionCodes, ['US-WA']);
    // An IPv4-mapped IPv6 address (a dual-stack listener's view of an IPv4 peer) is the IPv4 address.
    assert.equal(geo.lookup('::ffff:81.2.69.142')?.countryCode, 'GB');
    assert.equal(geo.lookup('1.0.0.1')?.asn, 15169);
    assert.equal(geo.lookup('1.0.0.1')?.countryCode, undefined);
    assert.equal(geo.lookup('2001:218::1')?.countryCode, 'JP');
    // Not in either database, or not an address at all.
    assert.equal(geo.lookup('198.51.100.1'), undefined);
    assert.equal(geo.lookup('not an address'), undefined);
    assert.equal(geo.lookup(''), undefined);
  });

  it('reads a Country database for countries, and an ASN database alone', async () => {
    const countries = await openGeoDatabases({ database: COUNTRY_DB, asnDatabase: undefined });
    assert.deepEqual([countries?.location, countries?.asn], [true, false]);
    assert.equal(countries?.lookup('89.160.20.112')?.countryCode, 'SE');
    assert.equal(countries?.lookup('1.0.0.1')?.asn, undefined);
    const asns = await openGeoDatabases({ database: undefined, asnDatabase: ASN_DB });
    assert.deepEqual([asns?.location, asns?.asn], [false, true]);
    assert.equal(asns?.lookup('1.128.0.1')?.asn, 1221);
  });

  it('refuses a database of the wrong kind and a file that is not one, naming the setting', async () => {
    await assert.rejects(openGeoDatabases({ database: ASN_DB, asnDatabase: undefined }), /^Error: GATEHOUSE_GEOIP_DB: .*GeoLite2-ASN database; expected City\|Country/);
    await assert.rejects(openGeoDatabases({ database: undefined, asnDatabase: CITY_DB }), /^Error: GATEHOUSE_ASN_DB: .*GeoLite2-City database; expected ASN/);
    const notOne = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-geo-')), 'GeoLite2-City.mmdb');
    fs.writeFileSync(notOne, 'not a MaxMind database\n'.repeat(100));
    try {
      await assert.rejects(openGeoDatabases({ database: notOne, asnDatabase: undefined }), /^Error: GATEHOUSE_GEOIP_DB: cannot read .* as a MaxMind database/);
    } finally {
      fs.rmSync(path.dirname(notOne), { recursive: true, force: true });
    }
  });
});
