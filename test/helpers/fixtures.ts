/** Rows the Management API cannot create yet (clients), inserted through the stores. */
import { newClientId, newClientSecret } from '../../src/crypto/ids.js';
import type { ClientRow } from '../../src/clients/store.js';
import { clientSecretContext } from '../../src/tenants/service.js';
import type { TestApp } from './app.js';

export interface TestClient {
  client_id: string;
  client_secret: string;
}

export async function insertClient(t: TestApp, fields: Partial<ClientRow> = {}): Promise<TestClient> {
  const client_id = fields.client_id ?? newClientId();
  const client_secret = newClientSecret();
  const now = new Date().toISOString();
  await t.ctx.clients.insert({
    tenant_id: t.tenant.id,
    client_id,
    name: 'Test client',
    description: '',
    app_type: 'non_interactive',
    is_first_party: 1,
    global: 0,
    token_endpoint_auth_method: 'client_secret_post',
    client_authentication_methods: null,
    grant_types: JSON.stringify(['client_credentials']),
    client_secret_enc: t.ctx.box.seal(client_secret, clientSecretContext(t.tenant.id, client_id)),
    created_at: now,
    updated_at: now,
    external_client_id: null,
    config: '{}',
    ...fields,
  });
  t.ctx.invalidation.invalidate(t.tenant.id);
  return { client_id, client_secret };
}
