/**
 * The hosted pages' database connection (src/domain/connections/login-connection.ts):
 * `connection`, else `default_directory` when enabled, else the oldest.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hostedLoginConnection } from '../../src/domain/connections/login-connection.js';
import type { ConnectionRow } from '../../src/domain/rows.js';

function connection(name: string, createdAt: string): ConnectionRow {
  return {
    tenant_id: 't',
    id: `con_${name}`,
    name,
    display_name: null,
    strategy: 'auth0',
    options: {},
    is_domain_connection: 0,
    realms: [name],
    metadata: {},
    created_at: createdAt,
    updated_at: createdAt,
  };
}

const upa = connection('Username-Password-Authentication', '2026-01-01T00:00:00.000Z');
const own = connection('a-partner-users', '2026-02-01T00:00:00.000Z');
const twinB = connection('twin-b', '2026-03-01T00:00:00.000Z');
const twinA = connection('twin-a', '2026-03-01T00:00:00.000Z');

describe('hostedLoginConnection', () => {
  test('the named connection, and only an enabled one', () => {
    assert.equal(hostedLoginConnection([upa, own], 'a-partner-users', 'Username-Password-Authentication'), own);
    assert.equal(hostedLoginConnection([upa, own], 'unknown', undefined), undefined);
  });

  test('without a name: the default directory when enabled, else the oldest, whatever the order given', () => {
    assert.equal(hostedLoginConnection([upa, own], undefined, 'a-partner-users'), own);
    assert.equal(hostedLoginConnection([own, upa], undefined, 'not-enabled'), upa);
    assert.equal(hostedLoginConnection([own, upa], undefined, undefined), upa, 'oldest, not first by name');
    assert.equal(hostedLoginConnection([twinB, twinA], undefined, ''), twinA, 'same creation time: by name');
  });

  test('no database connection: none', () => {
    assert.equal(hostedLoginConnection([], undefined, 'Username-Password-Authentication'), undefined);
  });
});
