/**
 * Clients with shapes the Management API refuses to make (a client registered
 * for private_key_jwt with no credentials, a secret-less public client, …),
 * inserted through the store. The configuration JSON is built from the same
 * columns, as the Management API would store it, so later PATCHes behave.
 */
import { newClientConfig } from '../../src/domain/clients/model.js';
import { newClientId, newClientSecret } from '../../src/platform/crypto/ids.js';
import { clientSecretContext } from '../../src/domain/tenants/service.js';
import type { TestApp } from './app.js';
import type { ClientRow } from '../../src/domain/rows.js';

export interface TestClient {
  client_id: string;
  client_secret: string;
}

export async function insertClient(t: TestApp, fields: Partial<ClientRow> = {}): Promise<TestClient> {
  const client_id = fields.client_id ?? newClientId();
  const client_secret = newClientSecret();
  const now = new Date().toISOString();
  const row: ClientRow = {
    tenant_id: t.tenant.id,
    client_id,
    name: 'Test client',
    description: '',
    app_type: 'non_interactive',
    is_first_party: 1,
    global: 0,
    token_endpoint_auth_method: 'client_secret_post',
    client_authentication_methods: null,
    grant_types: ['client_credentials'],
    client_secret_enc: t.ctx.box.seal(client_secret, clientSecretContext(t.tenant.id, client_id)),
    created_at: now,
    updated_at: now,
    external_client_id: null,
    config: {},
    ...fields,
  };
  const config = newClientConfig({
    name: row.name,
    description: row.description,
    is_first_party: row.is_first_party === 1,
    token_endpoint_auth_method: row.token_endpoint_auth_method,
    grant_types: row.grant_types,
    ...(row.app_type !== null && { app_type: row.app_type }),
    ...(row.client_authentication_methods !== null && { client_authentication_methods: row.client_authentication_methods }),
  });
  await t.ctx.stores.clients.insert({ ...row, config: fields.config ?? config });
  return { client_id, client_secret };
}
