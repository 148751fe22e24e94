/**
 * GATEHOUSE_FEDERATION_ENDPOINTS: the file is read at start into the
 * configuration, a bad one stops the start with a message naming the
 * setting, and every start while it is set logs a warning.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { createContext } from '../../src/app/context.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-federation-endpoints-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: unknown) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, typeof content === 'string' ? content : JSON.stringify(content));
  return at;
};

describe('GATEHOUSE_FEDERATION_ENDPOINTS', () => {
  it('is absent by default and read from its file when set', () => {
    assert.equal(loadConfig({}).federationEndpoints, undefined);
    const at = file('ok.json', { github: { authorization_endpoint: 'https://127.0.0.1:9443/login/oauth/authorize', token_endpoint: 'https://127.0.0.1:9443/login/oauth/access_token', api_base: 'https://127.0.0.1:9443/api/' }, 'google-oauth2': { issuer: 'https://127.0.0.1:9444' } });
    const config = loadConfig({ GATEHOUSE_FEDERATION_ENDPOINTS: at });
    assert.equal(config.federationEndpoints?.file, at);
    assert.deepEqual(config.federationEndpoints?.overrides, {
      github: { authorization_endpoint: 'https://127.0.0.1:9443/login/oauth/authorize', token_endpoint: 'https://127.0.0.1:9443/login/oauth/access_token', api_base: 'https://127.0.0.1:9443/api' },
      'google-oauth2': { issuer: 'https://127.0.0.1:9444' },
    });
  });

  for (const [name, content, message] of [
    ['missing.json', undefined, /cannot read/],
    ['notjson.json', '{github', /is not JSON/],
    ['array.json', [], /JSON object of strategies/],
    ['strategy.json', { samlp: { issuer: 'https://idp.example.com' } }, /"samlp" is not one of google-oauth2, github/],
    ['member.json', { github: { userinfo: 'https://idp.example.com' } }, /"github.userinfo" is not one of issuer/],
    ['http.json', { github: { token_endpoint: 'http://127.0.0.1:9443/token' } }, /"github.token_endpoint" must be an https URL/],
    // A member the strategy would ignore: its logins would go to the real provider.
    ['ignored.json', { github: { issuer: 'https://127.0.0.1:9443' } }, /"github.issuer" is not used by github, which takes authorization_endpoint, token_endpoint, api_base/],
    ['ignored-oidc.json', { 'google-oauth2': { issuer: 'https://127.0.0.1:9444', authorization_endpoint: 'https://127.0.0.1:9444/auth' } }, /"google-oauth2.authorization_endpoint" is not used by google-oauth2, which takes issuer/],
    // Half a provider: the code would go to the real token endpoint.
    ['partial.json', { github: { authorization_endpoint: 'https://127.0.0.1:9443/login/oauth/authorize' } }, /"github" needs token_endpoint, api_base too/],
    ['empty-entry.json', { apple: {} }, /"apple" needs issuer too/],
    ['waad.json', { waad: { issuer: 'https://127.0.0.1:9446/common/v2.0' } }, /"waad.issuer" must hold \{tenant\}/],
  ] as const) {
    it(`a bad file stops the start, naming the setting: ${name}`, () => {
      const at = content === undefined ? path.join(dir, name) : file(name, content);
      assert.throws(() => loadConfig({ GATEHOUSE_FEDERATION_ENDPOINTS: at }), (error: unknown) => error instanceof ConfigError && /GATEHOUSE_FEDERATION_ENDPOINTS/.test(error.message) && message.test(error.message));
    });
  }

  it('every start while it is set logs a warning naming the file and the strategies', async () => {
    const at = file('warn.json', { apple: { issuer: 'https://127.0.0.1:9445' } });
    for (const set of [true, false]) {
      const chunks: string[] = [];
      const logger = pino({ level: 'info' }, new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done(); } }));
      const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
      const ctx = await createContext(loadConfig({ GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...(set && { GATEHOUSE_FEDERATION_ENDPOINTS: at }) }), logger);
      await ctx.close();
      const warning = chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.level === 40 && /GATEHOUSE_FEDERATION_ENDPOINTS/.test(String(l.msg)));
      if (!set) {
        assert.equal(warning, undefined);
        continue;
      }
      assert.ok(warning);
      assert.equal(warning.file, at);
      assert.deepEqual(warning.strategies, ['apple']);
    }
  });
});
