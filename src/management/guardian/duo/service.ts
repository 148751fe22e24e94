/**
 * The Duo factor's settings (/guardian/factors/duo/settings): the
 * integration key, the secret key (sealed with the secret box under
 * `duoSecretKeyContext`, bound to the tenant; never answered, whatever the
 * operation: the document lists it in the answers' shapes, Gatehouse keeps
 * it write-only as it does Twilio's auth token) and the API host name, which
 * every write must leave set and which must be a host name (no scheme, path
 * or port). The `duo` factor uses them (src/domain/mfa/duo.ts) once they
 * are complete and the factor is enabled (docs/mfa.md).
 */
import { duoSecretKeyContext, type DuoSettings, type GuardianDuoStore } from '../../../domain/guardian/duo.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import type { SecretBox } from '../../../platform/crypto/secret-box.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { DuoSettingsBody, DuoSettingsResponse } from './schema.js';

/** A DNS host name of at least two labels (Duo's are `api-XXXXXXXX.duosecurity.com`). */
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

function invalid(property: string, message: string): Error {
  return managementErrors.invalidBody(`Payload validation error: '${message}' on property ${property}.`);
}

function checkedHost(host: string | null): string {
  if (host === null) throw invalid('host', 'Missing required property: host');
  if (!HOST_NAME.test(host)) throw invalid('host', `${host} is not a host name (api-XXXXXXXX.duosecurity.com, without scheme, path or port)`);
  return host.toLowerCase();
}

function readable(settings: DuoSettings | undefined): DuoSettingsResponse {
  const out: DuoSettingsResponse = {};
  if (settings?.ikey != null) out.ikey = settings.ikey;
  if (settings?.host != null) out.host = settings.host;
  return out;
}

/** What GuardianDuoService touches. */
export interface GuardianDuoServiceContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: { readonly guardianDuo: GuardianDuoStore };
}

export class GuardianDuoService {
  constructor(private readonly ctx: GuardianDuoServiceContext) {}

  /** GET: the integration key and host as set; never the secret key. */
  async get(tenant: Tenant): Promise<DuoSettingsResponse> {
    return readable(await this.ctx.stores.guardianDuo.get(tenant.id));
  }

  /** PUT: the settings replaced (a member left out is cleared); the host is required. */
  async set(tenant: Tenant, body: DuoSettingsBody): Promise<DuoSettingsResponse> {
    return this.write(tenant, { ikey: body.ikey ?? null, host: checkedHost(body.host ?? null), skey_enc: this.sealed(tenant, body.skey) ?? null });
  }

  /** PATCH: the members given replaced, the others kept; the host must still be set. */
  async update(tenant: Tenant, body: DuoSettingsBody): Promise<DuoSettingsResponse> {
    const current = await this.ctx.stores.guardianDuo.get(tenant.id);
    return this.write(tenant, {
      ikey: body.ikey ?? current?.ikey ?? null,
      host: checkedHost(body.host ?? current?.host ?? null),
      skey_enc: this.sealed(tenant, body.skey) ?? current?.skey_enc ?? null,
    });
  }

  private sealed(tenant: Tenant, skey: string | undefined): string | undefined {
    return skey === undefined ? undefined : this.ctx.box.seal(skey, duoSecretKeyContext(tenant.id), tenant.id);
  }

  private async write(tenant: Tenant, settings: DuoSettings): Promise<DuoSettingsResponse> {
    await this.ctx.stores.guardianDuo.set(tenant.id, settings, isoAt(this.ctx.now()));
    return readable(settings);
  }
}
