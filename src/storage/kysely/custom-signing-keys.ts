/** Custom signing keys (src/storage/migrations/0133_custom_signing_keys.ts). */
import type { CustomSigningJwk, CustomSigningKeyStore } from '../../domain/keys/custom-signing.js';
import type { Db } from '../database.js';

export class KyselyCustomSigningKeyStore implements CustomSigningKeyStore {
  constructor(private readonly db: Db) {}

  async get(tenantId: string): Promise<CustomSigningJwk[] | undefined> {
    const row = await this.db.selectFrom('custom_signing_keys').select('jwks').where('tenant_id', '=', tenantId).executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.jwks) as { keys: CustomSigningJwk[] }).keys;
  }

  async set(tenantId: string, keys: CustomSigningJwk[], at: string): Promise<void> {
    const jwks = JSON.stringify({ keys });
    await this.db
      .insertInto('custom_signing_keys')
      .values({ tenant_id: tenantId, jwks, updated_at: at })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ jwks, updated_at: at }))
      .execute();
  }

  async delete(tenantId: string): Promise<boolean> {
    const result = await this.db.deleteFrom('custom_signing_keys').where('tenant_id', '=', tenantId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
