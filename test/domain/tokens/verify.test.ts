/**
 * verifyTenantJwt: one verification of the tenant's own tokens, per purpose,
 * with one clock: a token of one purpose is refused for another, an expired
 * one is refused (except as an id_token_hint), a token of another tenant or
 * signed otherwise is invalid.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { verifyTenantJwt } from '../../../src/domain/tokens/verify.js';
import { createTestApp, withClockAdvanced, type TestApp } from '../../helpers/app.js';

async function appWithToken(): Promise<{ t: TestApp; token: string }> {
  const t = await createTestApp();
  return { t, token: await t.managementToken() };
}

describe('verifyTenantJwt', () => {
  let t: TestApp;
  /** A Management API token the tenant issued (24 h). */
  let token: string;

  before(async () => ({ t, token } = await appWithToken()));
  after(() => t.close());

  it('accepts the tenant’s Management API token for its purpose only', async () => {
    const management = await verifyTenantJwt(t.ctx, t.tenant, token, 'management');
    assert.equal(management.ok, true);
    assert.deepEqual(await verifyTenantJwt(t.ctx, t.tenant, token, 'userinfo'), { ok: false, failure: 'audience' });
  });

  it('refuses an expired token, past the 5 s tolerance, except as an id_token_hint', async () => {
    // Measured from the token's own exp, not from when it was issued: the suite may run long after `before`.
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    const untilExp = exp * 1000 - t.ctx.now();
    await withClockAdvanced(t, untilExp + 4_000, async () => {
      assert.equal((await verifyTenantJwt(t.ctx, t.tenant, token, 'management')).ok, true, 'within the tolerance');
    });
    await withClockAdvanced(t, untilExp + 6_000, async () => {
      assert.deepEqual(await verifyTenantJwt(t.ctx, t.tenant, token, 'management'), { ok: false, failure: 'expired' });
      assert.equal((await verifyTenantJwt(t.ctx, t.tenant, token, 'id_token_hint')).ok, true);
    });
  });

  it('a kid fixes its alg: the tenant key signs PS256 under `{kid}-ps256` and RS256 under its kid, never the other way', async () => {
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const { signing } = await t.ctx.keyring.keys(t.tenant.id);
    const sign = (alg: string, kid: string) => new SignJWT(payload).setProtectedHeader({ alg, kid }).sign(signing.privateKey);
    assert.equal((await verifyTenantJwt(t.ctx, t.tenant, await sign('PS256', `${signing.kid}-ps256`), 'management')).ok, true);
    assert.deepEqual(await verifyTenantJwt(t.ctx, t.tenant, await sign('RS256', `${signing.kid}-ps256`), 'management'), { ok: false, failure: 'invalid' });
    assert.deepEqual(await verifyTenantJwt(t.ctx, t.tenant, await sign('PS256', signing.kid), 'management'), { ok: false, failure: 'invalid' });
  });

  it('refuses a token signed by a key that is not the tenant’s, or of another tenant', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    const kid = (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
    const forged = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
    for (const purpose of ['management', 'userinfo', 'id_token_hint'] as const) {
      assert.deepEqual(await verifyTenantJwt(t.ctx, t.tenant, forged, purpose), { ok: false, failure: 'invalid' }, purpose);
    }
    const { tenant: other } = await t.ctx.tenants.create({ domain: 'other.test' });
    assert.deepEqual(await verifyTenantJwt(t.ctx, other, token, 'id_token_hint'), { ok: false, failure: 'invalid' });
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${token.split('.')[1]}.`;
    assert.deepEqual(await verifyTenantJwt(t.ctx, t.tenant, unsigned, 'management'), { ok: false, failure: 'invalid' });
  });
});
