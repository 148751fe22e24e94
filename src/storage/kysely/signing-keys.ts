import { atomically, type Db } from '../database.js';
import type { SigningKeyRow } from '../schema.js';
import type { KeyRotation, SigningKeyStore } from '../../domain/keys/store.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

/** Thrown inside the rotation's transaction to roll it back when a key is no longer in the status it had. */
class RotationRace extends Error {}

export class KyselySigningKeyStore implements SigningKeyStore {
  constructor(private readonly db: Db) {}

  async insert(row: SigningKeyRow): Promise<void> {
    await this.db.insertInto('signing_keys').values(toStored('signing_keys', row)).execute();
  }

  async listByTenant(tenantId: string): Promise<SigningKeyRow[]> {
    return parsedRows('signing_keys', this.db.selectFrom('signing_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('kid').execute());
  }

  async get(tenantId: string, kid: string): Promise<SigningKeyRow | undefined> {
    return parsedRow('signing_keys', this.db.selectFrom('signing_keys').selectAll().where('tenant_id', '=', tenantId).where('kid', '=', kid).executeTakeFirst());
  }

  async rotate(tenantId: string, rotation: KeyRotation): Promise<boolean> {
    try {
      await atomically(this.db, async (trx) => {
        const retired = await trx
          .updateTable('signing_keys')
          .set({ status: 'previous', current_until: rotation.at })
          .where('tenant_id', '=', tenantId)
          .where('kid', '=', rotation.currentKid)
          .where('status', '=', 'current')
          .executeTakeFirst();
        if (Number(retired.numUpdatedRows) !== 1) throw new RotationRace();
        const promoted = await trx
          .updateTable('signing_keys')
          .set({ status: 'current', current_since: rotation.at })
          .where('tenant_id', '=', tenantId)
          .where('kid', '=', rotation.nextKid)
          .where('status', '=', 'next')
          .executeTakeFirst();
        if (Number(promoted.numUpdatedRows) !== 1) throw new RotationRace();
        await trx.insertInto('signing_keys').values(toStored('signing_keys', rotation.newNext)).execute();
      });
      return true;
    } catch (err) {
      if (err instanceof RotationRace) return false;
      throw err;
    }
  }

  async revoke(tenantId: string, kid: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('signing_keys')
      .set({ status: 'revoked', revoked_at: at })
      .where('tenant_id', '=', tenantId)
      .where('kid', '=', kid)
      .where('status', '=', 'previous')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
