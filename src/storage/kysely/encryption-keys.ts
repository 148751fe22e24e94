/** The encryption key hierarchy (migration 0200) and the sealed-value scan of a rekey. */
import type { Kysely } from 'kysely';
import type { EncryptionKeyRow } from '../../domain/encryption/rows.js';
import type { EncryptionKeyStore, SealedRow, SealedTable, SealedValueStore } from '../../domain/encryption/store.js';
import type { Db } from '../database.js';

export class KyselyEncryptionKeyStore implements EncryptionKeyStore {
  constructor(private readonly db: Db) {}

  list(tenantId: string): Promise<EncryptionKeyRow[]> {
    return this.db.selectFrom('encryption_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('kid').execute();
  }

  listLive(): Promise<EncryptionKeyRow[]> {
    return this.db.selectFrom('encryption_keys').selectAll().where('state', '!=', 'destroyed').orderBy('tenant_id').orderBy('created_at').orderBy('kid').execute();
  }

  get(tenantId: string, kid: string): Promise<EncryptionKeyRow | undefined> {
    return this.db.selectFrom('encryption_keys').selectAll().where('tenant_id', '=', tenantId).where('kid', '=', kid).executeTakeFirst();
  }

  async insert(row: EncryptionKeyRow): Promise<void> {
    await this.db.insertInto('encryption_keys').values(row).execute();
  }

  async update(tenantId: string, kid: string, changes: Parameters<EncryptionKeyStore['update']>[2]): Promise<boolean> {
    const result = await this.db.updateTable('encryption_keys').set(changes).where('tenant_id', '=', tenantId).where('kid', '=', kid).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, kid: string): Promise<boolean> {
    const result = await this.db.deleteFrom('encryption_keys').where('tenant_id', '=', tenantId).where('kid', '=', kid).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async rekeyRunning(tenantId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('jobs')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('type', '=', 'encryption_rekey')
      .where('status', 'in', ['pending', 'processing'])
      .executeTakeFirst();
    return row !== undefined;
  }
}

/**
 * The tables and columns come from the domain's fixed list of sealed-value
 * sources (src/domain/encryption/sealed-values.ts), never from a request; a
 * source has at most one key column besides `tenant_id`.
 */
export class KyselySealedValueStore implements SealedValueStore {
  // The table is chosen at run time from the fixed list, so the query is built untyped.
  readonly #db: Kysely<Record<string, Record<string, string | null>>>;

  constructor(db: Db) {
    this.#db = db as unknown as Kysely<Record<string, Record<string, string | null>>>;
  }

  async scan(source: SealedTable, tenantId: string, after: readonly string[] | undefined, limit: number): Promise<SealedRow[]> {
    const [key] = checkedKey(source);
    let query = this.#db.selectFrom(source.table).select([...source.key, ...source.columns]).where('tenant_id', '=', tenantId);
    if (key !== undefined) {
      if (after !== undefined) query = query.where(key, '>', after[0]!);
      query = query.orderBy(key);
    }
    return (await query.limit(limit).execute()) as SealedRow[];
  }

  async replace(source: SealedTable, tenantId: string, keyValues: readonly string[], expected: SealedRow, changes: SealedRow): Promise<boolean> {
    const [key] = checkedKey(source);
    let query = this.#db.updateTable(source.table).set(changes).where('tenant_id', '=', tenantId);
    if (key !== undefined) query = query.where(key, '=', keyValues[0]!);
    for (const [column, value] of Object.entries(expected)) query = value === null ? query.where(column, 'is', null) : query.where(column, '=', value);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

function checkedKey(source: SealedTable): readonly string[] {
  if (source.key.length > 1) throw new Error(`the sealed-value source ${source.table} has more than one key column`);
  return source.key;
}
