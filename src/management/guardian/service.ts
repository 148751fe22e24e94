/**
 * Business rules of the push-notification factor (Guardian), behind the
 * Management API routes under /guardian/factors/push-notification.
 *
 * PUT and PATCH of a provider take the same body and differ only in what an
 * absent member means:
 * - PUT replaces the provider's whole configuration ("Overwrite all
 *   configuration details" in the service's OpenAPI document): members absent
 *   from the body are cleared, the APNs p12 and the AWS keys included. A PUT
 *   that only toggles `sandbox` therefore also forgets the certificate; send
 *   PATCH to change one member.
 * - PATCH changes only the members it carries; `null` clears a member.
 *
 * Secrets (the p12, both AWS keys) are sealed before they reach the store and
 * never come back from a GET: the p12 is never returned at all, the AWS secret
 * key only in the response to the request that sent it (wire notes §4).
 */
import {
  apnsP12Context,
  snsAccessKeyIdContext,
  snsSecretAccessKeyContext,
  type ApnsSettings,
  type PushProvider,
  type SnsSettings,
} from '../../domain/guardian/model.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import {
  P12_DESCRIPTION,
  type ApnsBody,
  type ApnsProviderResponse,
  type ApnsUpdateResponse,
  type SnsBody,
  type SnsProviderResponse,
  type SnsUpdateResponse,
} from './schema.js';
import type { GuardianPushStore } from '../../domain/guardian/store.js';
import { isoAt } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** Standard base64 (RFC 4648 §4), padding optional. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function p12Error(reason: string) {
  // Worded like the validator's messages; the value itself is not repeated, it is a credential.
  return managementErrors.invalidBody(`Payload validation error: '${reason}' on property p12 (${P12_DESCRIPTION}).`);
}

/**
 * The PKCS#12 file a `p12` member carries: base64, possibly wrapped in lines
 * as `base64` and `openssl base64` print it, decoding to a DER/BER SEQUENCE
 * (the PFX structure of RFC 7292 §4). The certificate itself is checked when
 * pushes are sent, not here.
 */
export function decodeP12(value: string): Buffer {
  const compact = value.replace(/\r?\n/g, '');
  const padded = compact.includes('=');
  if (!BASE64.test(compact) || compact.length % 4 === 1 || (padded && compact.length % 4 !== 0)) {
    throw p12Error('String is not base64');
  }
  const der = Buffer.from(compact, 'base64');
  if (der[0] !== 0x30) throw p12Error('Base64 data is not a PKCS#12 file');
  return der;
}

/** What the guardian services touch. */
export interface GuardianServiceContext {
  readonly box: SecretBox;
  readonly now: () => number;
}

const now = (ctx: GuardianServiceContext): string => isoAt(ctx.now());

export class GuardianPushService {
  constructor(
    private readonly ctx: GuardianServiceContext,
    private readonly store: GuardianPushStore,
  ) {}

  // -------------------------------------------------------------------------
  // APNs
  // -------------------------------------------------------------------------

  async getApns(tenant: Tenant): Promise<ApnsProviderResponse> {
    const { apns } = await this.store.get(tenant.id);
    // Real traffic: `{"enabled":false}` before the first configuration (wire notes §4).
    if (apns === null) return { enabled: false };
    return { ...this.apnsToApi(apns), enabled: true };
  }

  /** PUT: replaces the APNs configuration; absent members are cleared. */
  async putApns(tenant: Tenant, body: ApnsBody): Promise<ApnsUpdateResponse> {
    const stored = await this.store.replaceApns(tenant.id, this.sealApns(tenant, body), now(this.ctx));
    return this.apnsToApi(stored);
  }

  /** PATCH: changes the members given; `null` clears. */
  async patchApns(tenant: Tenant, body: ApnsBody): Promise<ApnsUpdateResponse> {
    const stored = await this.store.mergeApns(tenant.id, this.sealApns(tenant, body), now(this.ctx));
    return this.apnsToApi(stored);
  }

  /** The members the body carries, the p12 checked and sealed (before anything is written). */
  private sealApns(tenant: Tenant, body: ApnsBody): ApnsSettings {
    const settings: ApnsSettings = {};
    if (body.sandbox !== undefined) settings.sandbox = body.sandbox;
    if (body.bundle_id !== undefined) settings.bundle_id = body.bundle_id;
    if (body.p12 !== undefined) {
      settings.p12_enc = body.p12 === null ? null : this.ctx.box.seal(decodeP12(body.p12), apnsP12Context(tenant.id), tenant.id);
    }
    return settings;
  }

  private apnsToApi(apns: ApnsSettings): ApnsUpdateResponse {
    const api: ApnsUpdateResponse = {};
    if (apns.sandbox !== undefined) api.sandbox = apns.sandbox;
    if (apns.bundle_id !== undefined) api.bundle_id = apns.bundle_id;
    return api;
  }

  // -------------------------------------------------------------------------
  // SNS
  // -------------------------------------------------------------------------

  /**
   * GET: the stored members but the secret key. Before the first
   * configuration `{}`: the real body is unrecorded (wire notes §4,
   * "UNCONFIRMED … probably {} or nulls"), and `{}` is what a configuration
   * without members looks like too.
   */
  async getSns(tenant: Tenant): Promise<SnsProviderResponse> {
    const { sns } = await this.store.get(tenant.id);
    return sns === null ? {} : this.snsToApi(tenant, sns);
  }

  /**
   * PUT: replaces the SNS configuration; absent members are cleared. The
   * response echoes the body, the secret key included when it was sent
   * (real traffic, wire notes §4).
   */
  async putSns(tenant: Tenant, body: SnsBody): Promise<SnsUpdateResponse> {
    const stored = await this.store.replaceSns(tenant.id, this.sealSns(tenant, body), now(this.ctx));
    return this.snsUpdateToApi(tenant, stored, body);
  }

  /**
   * PATCH: changes the members given; `null` clears. The response is the
   * whole configuration after the change, like PATCH responses elsewhere in
   * the API, except the secret key: it is echoed only when this request sent
   * it (the caller already holds it), never read back from storage, so a
   * PATCH of another member cannot be used to read the stored secret. No
   * real PATCH traffic is recorded (wire notes §4); this keeps the rule PUT
   * follows, "the response carries the secret only when the body did".
   */
  async patchSns(tenant: Tenant, body: SnsBody): Promise<SnsUpdateResponse> {
    const stored = await this.store.mergeSns(tenant.id, this.sealSns(tenant, body), now(this.ctx));
    return this.snsUpdateToApi(tenant, stored, body);
  }

  private sealSns(tenant: Tenant, body: SnsBody): SnsSettings {
    const settings: SnsSettings = {};
    if (body.aws_access_key_id !== undefined) {
      settings.aws_access_key_id_enc =
        body.aws_access_key_id === null ? null : this.ctx.box.seal(body.aws_access_key_id, snsAccessKeyIdContext(tenant.id), tenant.id);
    }
    if (body.aws_secret_access_key !== undefined) {
      settings.aws_secret_access_key_enc =
        body.aws_secret_access_key === null
          ? null
          : this.ctx.box.seal(body.aws_secret_access_key, snsSecretAccessKeyContext(tenant.id), tenant.id);
    }
    if (body.aws_region !== undefined) settings.aws_region = body.aws_region;
    if (body.sns_apns_platform_application_arn !== undefined) {
      settings.sns_apns_platform_application_arn = body.sns_apns_platform_application_arn;
    }
    if (body.sns_gcm_platform_application_arn !== undefined) {
      settings.sns_gcm_platform_application_arn = body.sns_gcm_platform_application_arn;
    }
    return settings;
  }

  /** The readable members; the secret key is never read back. */
  private snsToApi(tenant: Tenant, sns: SnsSettings): SnsProviderResponse {
    const api: SnsProviderResponse = {};
    if (sns.aws_access_key_id_enc !== undefined) {
      api.aws_access_key_id =
        sns.aws_access_key_id_enc === null ? null : this.ctx.box.openString(sns.aws_access_key_id_enc, snsAccessKeyIdContext(tenant.id));
    }
    if (sns.aws_region !== undefined) api.aws_region = sns.aws_region;
    if (sns.sns_apns_platform_application_arn !== undefined) {
      api.sns_apns_platform_application_arn = sns.sns_apns_platform_application_arn;
    }
    if (sns.sns_gcm_platform_application_arn !== undefined) {
      api.sns_gcm_platform_application_arn = sns.sns_gcm_platform_application_arn;
    }
    return api;
  }

  private snsUpdateToApi(tenant: Tenant, stored: SnsSettings, body: SnsBody): SnsUpdateResponse {
    const api: SnsUpdateResponse = this.snsToApi(tenant, stored);
    if (body.aws_secret_access_key !== undefined) api.aws_secret_access_key = body.aws_secret_access_key;
    return api;
  }

  // -------------------------------------------------------------------------
  // Selected provider
  // -------------------------------------------------------------------------

  async getSelectedProvider(tenant: Tenant): Promise<{ provider: PushProvider }> {
    const { selected_provider } = await this.store.get(tenant.id);
    return { provider: selected_provider };
  }

  /** Selecting a provider does not require it to be configured: neither the spec nor the OpenAPI document states such a rule. */
  async setSelectedProvider(tenant: Tenant, provider: PushProvider): Promise<{ provider: PushProvider }> {
    await this.store.setSelectedProvider(tenant.id, provider, now(this.ctx));
    return { provider };
  }
}
