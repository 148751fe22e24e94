/**
 * Rows and expected error bodies for the RBAC route tests: users are inserted
 * through the store (no password hashing), roles, groups and APIs through the
 * Management API itself.
 */
import assert from 'node:assert/strict';
import { randomString } from '../../src/platform/crypto/ids.js';
import type { TestApp } from './app.js';
import { connectionRow, groupRow, userRow } from './rows.js';
import { toStored } from '../../src/storage/json-columns.js';

export interface Role {
  id: string;
  name: string;
  description: string | null;
}

export const ROLE_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'The role does not exist.' };
export const USER_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' };
export const GROUP_NOT_FOUND = { statusCode: 404, error: 'Not Found', message: 'Group not found.', errorCode: 'inexistent_group' };

export function badRequest(message: string, errorCode = 'invalid_body'): Record<string, unknown> {
  return { statusCode: 400, error: 'Bad Request', message, errorCode };
}

export function forbidden(...scopes: string[]): Record<string, unknown> {
  return { statusCode: 403, error: 'Forbidden', message: `Insufficient scope, expected any of: ${scopes.join(', ')}`, errorCode: 'insufficient_scope' };
}

export function resourceServerNotFound(identifier: string): Record<string, unknown> {
  return { statusCode: 404, error: 'Not Found', message: `The resource server does not exist: '${identifier}'`, errorCode: 'inexistent_resource_server' };
}

export function permissionNotFound(identifier: string, name: string): Record<string, unknown> {
  return badRequest(`Permission '${name}' does not exist on resource server '${identifier}'`);
}

/** Builders for one test app's tenant. */
export function rbacFixtures(t: TestApp) {
  const { users, groups } = t.ctx.stores;
  let connectionId: string | undefined;

  return {
    /** A user of a database connection, inserted through the store; returns its user_id. */
    async user(overrides: Parameters<typeof userRow>[2] = {}): Promise<string> {
      if (connectionId === undefined) {
        const connection = connectionRow(t.tenant.id);
        await t.ctx.database.db.insertInto('connections').values(toStored('connections', connection)).execute();
        connectionId = connection.id;
      }
      const row = userRow(t.tenant.id, connectionId, { created_at: new Date().toISOString(), ...overrides });
      await users.insert(row);
      return row.user_id;
    },

    async role(name = `role-${randomString(10)}`, description?: string): Promise<Role> {
      const res = await t.management('POST', '/api/v2/roles', { body: { name, ...(description !== undefined && { description }) } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Role;
    },

    /** A tenant group through POST /groups, or, with a connection or organization, through the store. */
    async group(extra: { connection_id?: string; organization_id?: string } = {}): Promise<string> {
      if (extra.connection_id === undefined && extra.organization_id === undefined) {
        const res = await t.management('POST', '/api/v2/groups', { body: { name: `group-${randomString(10)}` } });
        assert.equal(res.statusCode, 201, res.body);
        return (res.json() as { id: string }).id;
      }
      const row = groupRow(t.tenant.id, extra);
      await groups.insert(row);
      return row.id;
    },

    /** An API with scopes `[value, description?]`, through POST /resource-servers; returns its id and identifier. */
    async api(identifier: string, scopes: [string, string?][], name = `API ${identifier}`): Promise<{ id: string; identifier: string }> {
      const res = await t.management('POST', '/api/v2/resource-servers', {
        body: { identifier, name, scopes: scopes.map(([value, description]) => ({ value, ...(description !== undefined && { description }) })) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return { id: (res.json() as { id: string }).id, identifier };
    },
  };
}

/** Path segment of a user id (`auth0|…` has a `|`). */
export const enc = (id: string): string => encodeURIComponent(id);
