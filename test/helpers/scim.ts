// What SCIM endpoint tests share: an oidc connection with a SCIM configuration, its tokens, and the check of SCIM's error shape.
import assert from 'node:assert/strict';
import { OIDC_METADATA } from '../fixtures/scim-requests.js';
import type { TestApp } from './app.js';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A new oidc connection named `name` with a SCIM configuration; its id. */
export async function scimConnection(t: TestApp, name: string): Promise<string> {
  const res = await t.management('POST', '/api/v2/connections', { body: { name, strategy: 'oidc', options: { client_id: 'x', type: 'front_channel', oidc_metadata: OIDC_METADATA } } });
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().id as string;
  assert.equal((await t.management('POST', `/api/v2/connections/${id}/scim-configuration`)).statusCode, 201);
  return id;
}

/** A SCIM token of the connection (all scopes unless named). */
export async function scimToken(t: TestApp, connectionId: string, scopes?: string[]): Promise<string> {
  const res = await t.management('POST', `/api/v2/connections/${connectionId}/scim-configuration/tokens`, { body: scopes ? { scopes } : {} });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().token as string;
}

type Response = { statusCode: number; headers: Record<string, unknown>; json: () => Record<string, unknown>; body: string };

/** `res` is SCIM's error (RFC 7644 §3.12) with this status and scimType. */
export function assertScimError(res: Response, status: number, scimType?: string): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/scim\+json/, res.body);
  const body = res.json();
  assert.deepEqual(body.schemas, [SCIM_ERROR_SCHEMA]);
  assert.equal(body.status, String(status));
  assert.equal(body.scimType, scimType);
  assert.equal(typeof body.detail, 'string');
}
