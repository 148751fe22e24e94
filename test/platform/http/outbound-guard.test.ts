/**
 * Tenants' outbound destinations reach only public addresses unless the
 * operator allows more (src/platform/http/outbound-guard.ts): the address
 * rules, GATEHOUSE_OUTBOUND_ALLOW, and a real HTTPS poster that never
 * connects to a refused destination, by IP literal or by name.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { addressAllowed, parseOutboundAllow, resolveAllowed, PUBLIC_ONLY } from '../../../src/platform/http/outbound-guard.js';
import { httpsPoster } from '../../../src/platform/http/form-poster.js';
import { createTlsCertificate } from '../../../src/platform/crypto/certificates.js';
import { ConfigError, loadConfig } from '../../../src/platform/config.js';
import { tempDir } from '../../helpers/app.js';
import { LOOPBACK_ALLOWED } from '../../helpers/outbound.js';

describe('outbound destinations', () => {
  it('public unicast addresses are allowed; loopback, private, link-local, shared, unspecified and multicast ones are not', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(addressAllowed(address, PUBLIC_ONLY), true, address);
    }
    for (const address of [
      '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc12::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'ff02::1',
      'not an address', '',
    ]) {
      assert.equal(addressAllowed(address, PUBLIC_ONLY), false, address);
    }
  });

  it('GATEHOUSE_OUTBOUND_ALLOW opens exactly the ranges it lists', () => {
    const policy = { allow: parseOutboundAllow('10.0.0.0/8, fd00::/8') };
    assert.equal(addressAllowed('10.20.30.40', policy), true);
    assert.equal(addressAllowed('::ffff:10.20.30.40', policy), true, 'an IPv4-mapped address is judged as its IPv4 address');
    assert.equal(addressAllowed('fd12::1', policy), true);
    assert.equal(addressAllowed('192.168.0.1', policy), false);
    assert.equal(addressAllowed('127.0.0.1', policy), false);
    assert.equal(addressAllowed('169.254.169.254', policy), false);
  });

  it('a malformed GATEHOUSE_OUTBOUND_ALLOW stops the start with the variable named', () => {
    for (const value of ['10.0.0.0', '10.0.0.0/33', 'private', '10.0.0.0/8,,example.com']) {
      assert.throws(
        () => loadConfig({ GATEHOUSE_DATA_DIR: tempDir(), GATEHOUSE_OUTBOUND_ALLOW: value }),
        (err: unknown) => err instanceof ConfigError && /GATEHOUSE_OUTBOUND_ALLOW/.test(err.message),
        value,
      );
    }
    assert.deepEqual(loadConfig({ GATEHOUSE_DATA_DIR: tempDir() }).outbound.allow, []);
  });

  it('a name is judged by every address it resolves to', async () => {
    await assert.rejects(resolveAllowed('localhost', PUBLIC_ONLY), (err: Error & { code?: string }) => err.code === 'EOUTBOUNDREFUSED' && /localhost resolves to/.test(err.message));
    assert.match(await resolveAllowed('localhost', LOOPBACK_ALLOWED), /^(127\.0\.0\.1|::1)$/);
    await assert.rejects(resolveAllowed('169.254.169.254', PUBLIC_ONLY), /169\.254\.169\.254 is not a public address/);
  });

  describe('the HTTPS poster', () => {
    let server: https.Server;
    let port: number;
    let ca: string;
    let requests = 0;

    before(async () => {
      const material = await createTlsCertificate(['localhost', '127.0.0.1']);
      ca = material.certPem;
      server = https.createServer({ key: material.keyPem, cert: material.certPem }, (req, res) => {
        requests += 1;
        req.resume();
        req.on('end', () => res.writeHead(204).end());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('refuses a loopback destination by IP literal and by name, and posts to it once the operator allows loopback', async () => {
      const refusing = httpsPoster({ ca, timeoutMs: 2000 });
      for (const url of [`https://127.0.0.1:${port}/events`, `https://localhost:${port}/events`]) {
        await assert.rejects(refusing(url, '{}', { 'content-type': 'application/json' }), (err: Error & { code?: string }) => err.code === 'EOUTBOUNDREFUSED', url);
      }
      assert.equal(requests, 0, 'the stand-in never saw a request');

      const allowing = httpsPoster({ ca, timeoutMs: 2000, outbound: LOOPBACK_ALLOWED });
      assert.equal(await allowing(`https://127.0.0.1:${port}/events`, '{}', { 'content-type': 'application/json' }), 204);
      assert.equal(requests, 1);
    });
  });
});
