/**
 * Names that come from outside (an action's claim names, a SCIM attribute
 * path, a connection's option names) are looked up among own properties
 * only: `__proto__` and `constructor` are names like any other, never the
 * object's prototype or Object's members.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setClaim } from '../../src/domain/actions-runtime/claims.js';
import { isScreenOf } from '../../src/domain/branding/rendering.js';
import { member } from '../../src/domain/scim/mapping.js';
import { googleAppsOptionsProblem } from '../../src/domain/connections/enterprise-oidc-options.js';
import { attributeMapProblem, mappedAttributes } from '../../src/domain/connections/attribute-map.js';

describe('names from outside are own properties only', () => {
  it('an action cannot set __proto__ as a claim: the claims keep their prototype and gain nothing', () => {
    const claims: Record<string, unknown> = {};
    setClaim(claims, '__proto__', { sub: 'someone-else', iss: 'https://evil.example' }, { namespacedOnly: false });
    assert.equal(Object.getPrototypeOf(claims), Object.prototype);
    assert.equal((claims as { sub?: unknown }).sub, undefined);
    assert.deepEqual(Object.keys(claims), []);
    setClaim(claims, 'https://example.com/role', 'admin', { namespacedOnly: false });
    assert.deepEqual(claims, { 'https://example.com/role': 'admin' });
  });

  it('a SCIM attribute named constructor or __proto__ finds nothing on a resource without it', () => {
    assert.equal(member({ userName: 'a' }, 'constructor'), undefined);
    assert.equal(member({ userName: 'a' }, '__proto__'), undefined);
    assert.equal(member({ userName: 'a' }, 'USERNAME'), 'a');
  });

  it('a connection option named constructor is not taken for a rule of the strategy', () => {
    const good = { client_id: 'abc', domain: 'example.com' };
    const problem = googleAppsOptionsProblem({ ...good, constructor: 'x' });
    assert.ok(problem === undefined || typeof problem.message === 'string', JSON.stringify(problem));
  });

  it('an attribute map naming __proto__ or constructor is refused, and never sets the profile\'s prototype', () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const attributes = JSON.parse(`{"${name}": "\${context.tokenset.extra}", "email": "\${context.tokenset.email}"}`) as Record<string, string>;
      assert.match(attributeMapProblem({ mapping_mode: 'use_map', attributes }, ['use_map']) ?? '', /is not an attribute name/, name);
      const mapped = mappedAttributes(
        { mode: 'use_map', attributes, userinfoScope: undefined },
        { tokenset: { email: 'user@example.com', extra: { email_verified: true, name: 'Injected' } }, userinfo: undefined, connection: { id: 'con_1', strategy: 'oidc' } },
      );
      assert.deepEqual({ ...mapped }, { email: 'user@example.com' }, name);
      assert.equal(mapped.email_verified, undefined, name);
      assert.equal(mapped.name, undefined, name);
    }
  });

  it("a render settings path's prompt is one of the service's prompts, never a member of Object's prototype", () => {
    for (const prompt of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) assert.equal(isScreenOf(prompt, 'login'), false, prompt);
    assert.equal(isScreenOf('login', 'login'), true);
  });
});
