import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONNECTION_STRATEGIES, connectionStrategy } from '../../src/domain/connections/strategies/index.js';

describe('connection strategy registry', () => {
  it('holds each strategy once, by name', () => {
    const names = CONNECTION_STRATEGIES.map((s) => s.name);
    assert.deepEqual(new Set(names).size, names.length);
    assert.deepEqual(names.slice(0, 4), ['auth0', 'samlp', 'email', 'sms']);
    assert.equal(connectionStrategy('google-oauth2-unknown'), undefined);
    assert.equal(connectionStrategy('constructor'), undefined);
  });

  it('gives enterprise users the connection in their id and others not', () => {
    assert.equal(connectionStrategy('samlp')!.userId({ name: 'acme' }, 'jane@acme.test'), 'samlp|acme|jane@acme.test');
    assert.equal(connectionStrategy('email')!.userId({ name: 'email' }, 'abc'), 'email|abc');
  });

  it('checks options with the strategy module', () => {
    assert.deepEqual(connectionStrategy('samlp')!.optionsProblem({}), { property: 'options.signInEndpoint', message: 'is required for a samlp connection' });
    assert.equal(connectionStrategy('sms')!.optionsProblem({ totp: 'x' })?.property, 'options');
    assert.equal(connectionStrategy('auth0')!.optionsProblem({ anything: true }), undefined);
  });
});
