/**
 * Signing keys of the tenant (/api/v2/keys/signing): list, read, rotate and
 * revoke, as the service does them (src/domain/keys/keyring.ts describes the
 * lifecycle: next → current → previous → revoked). Rotations and revocations
 * are configuration writes: every process drops its cached keys.
 */
import type { SigningKeyRow } from '../../../domain/rows.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { certificateDigests, clientSigningKey } from '../../../platform/crypto/certificates.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { SigningKeyIdentity, SigningKeyView } from './schema.js';
import type { Keyring } from '../../../domain/keys/keyring.js';
import type { SigningKeyStore } from '../../../domain/keys/store.js';

/** The service's order: the current key, the next, then the previous and revoked ones, newest first. */
const ORDER: Record<SigningKeyRow['status'], number> = { current: 0, next: 1, previous: 2, revoked: 2 };

function view(row: SigningKeyRow): SigningKeyView {
  const der = Buffer.from(row.cert_der, 'base64');
  const { cert, pkcs7 } = clientSigningKey(der);
  return {
    kid: row.kid,
    cert,
    pkcs7,
    current: row.status === 'current',
    next: row.status === 'next',
    previous: row.status === 'previous',
    ...(row.current_since !== null && { current_since: row.current_since }),
    ...(row.current_until !== null && { current_until: row.current_until }),
    ...certificateDigests(der),
    revoked: row.status === 'revoked',
    ...(row.revoked_at !== null && { revoked_at: row.revoked_at }),
  };
}

const identity = (row: SigningKeyRow): SigningKeyIdentity => ({ cert: clientSigningKey(Buffer.from(row.cert_der, 'base64')).cert, kid: row.kid });

/** What SigningKeyService touches. */
export interface SigningKeyServiceContext {
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly stores: { readonly signingKeys: SigningKeyStore };
}

export class SigningKeyService {
  constructor(private readonly ctx: SigningKeyServiceContext) {}

  async list(tenant: Tenant): Promise<SigningKeyView[]> {
    const rows = await this.ctx.stores.signingKeys.listByTenant(tenant.id);
    // listByTenant is oldest first; a stable sort keeps the newest first within a status once reversed.
    return [...rows].reverse().sort((a, b) => ORDER[a.status] - ORDER[b.status]).map(view);
  }

  async get(tenant: Tenant, kid: string): Promise<SigningKeyView> {
    return view(await this.#row(tenant, kid));
  }

  /**
   * The next key becomes current, the current one previous, and a new next
   * key is made; answers the new next key. A tenant made before rotation
   * existed has no next key: one is made first, and signs at once.
   */
  async rotate(tenant: Tenant): Promise<SigningKeyIdentity> {
    const rows = await this.ctx.stores.signingKeys.listByTenant(tenant.id);
    const current = rows.find((r) => r.status === 'current');
    if (!current) throw new Error(`tenant ${tenant.id} has no current signing key`);
    let next = rows.find((r) => r.status === 'next');
    if (!next) {
      next = await this.ctx.keyring.generate(tenant.id, tenant.domain, 'next');
      await this.ctx.stores.signingKeys.insert(next);
    }
    const newNext = await this.ctx.keyring.generate(tenant.id, tenant.domain, 'next');
    const rotated = await this.ctx.stores.signingKeys.rotate(tenant.id, { currentKid: current.kid, nextKid: next.kid, newNext, at: isoAt(this.ctx.now()) });
    if (!rotated) throw managementErrors.conflict('Another rotation of the signing keys is in progress; try again.');
    return identity(newNext);
  }

  /** Revokes a previous key: it leaves the JWKS and the tokens it signed stop verifying. The current and next keys cannot be revoked. */
  async revoke(tenant: Tenant, kid: string): Promise<SigningKeyIdentity> {
    const row = await this.#row(tenant, kid);
    if (row.status === 'revoked') return identity(row);
    if (row.status !== 'previous') {
      throw managementErrors.badRequest(`The ${row.status} signing key cannot be revoked; only a previous key can (rotate first).`, 'operation_not_supported');
    }
    // Lost to a concurrent revocation or rotation: answer with what the key is now.
    if (!(await this.ctx.stores.signingKeys.revoke(tenant.id, kid, isoAt(this.ctx.now())))) return this.revoke(tenant, kid);
    return identity(row);
  }

  async #row(tenant: Tenant, kid: string): Promise<SigningKeyRow> {
    const row = await this.ctx.stores.signingKeys.get(tenant.id, kid);
    if (!row) throw managementErrors.notFound('Signing key not found', 'inexistent_signing_key');
    return row;
  }
}
