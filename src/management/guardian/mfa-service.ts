/**
 * The Management API's side of multi-factor authentication: which factors
 * are enabled, the MFA policy, and users' enrolments (listed, added by an
 * administrator, removed, the recovery code regenerated). The rules of
 * enrolment and verification are the domain's (src/domain/mfa/service.ts).
 *
 * A factor of the service's list that Gatehouse could not use would be
 * listed, always disabled, and enabling it refused with 400
 * `operation_not_supported` rather than accepted and silently ignored (the
 * registry, src/domain/mfa/factors/registry.ts, says which it implements).
 */
import { sendTenantMail, userVariables, type TenantMailContext } from '../../domain/email/templates.js';
import { authenticatorApiId, factorEnabled, factorOf, factorOfType, OTP_FACTOR, supportedFactor } from '../../domain/mfa/factors/registry.js';
import type { SecondFactor } from '../../domain/mfa/factors/factor.js';
import {
  twilioAuthTokenContext,
  FACTOR_NAMES,
  storedIdOf,
  type Authenticator,
  type FactorName,
  type MfaPolicy,
  type PhoneMessageType,
  type PhoneProvider,
  type SmsTemplates,
  type TwilioSettings,
} from '../../domain/mfa/model.js';
import { renderTemplateProblem } from '../../domain/templates.js';
import type { TwilioBody, TwilioReadResponse } from './sms/schema.js';
import { addOobAuthenticator, addTotpAuthenticator, regenerateRecoveryCode, secondFactors, type MfaContext } from '../../domain/mfa/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { managementErrors } from '../../platform/http/errors.js';
import { offsetList, offsetPaging, type OffsetList } from '../lists.js';
import { userNotFound } from '../users/service.js';
import { issueEnrollmentTicket, type EnrollmentTicketContext } from '../../domain/mfa/enrollment-ticket.js';
import type {
  EnrollmentTicketBody,
  EnrollmentTicketResponse,
  CreateAuthenticationMethodBody,
  CreatedAuthenticationMethod,
  GuardianEnrollment,
  GuardianFactor,
  SetAuthenticationMethodsBody,
  UpdateAuthenticationMethodBody,
  UserAuthenticationMethod,
  UsersEnrollment,
} from './mfa-schema.js';
import type { MfaAuthenticatorStore, MfaSettingsStore } from '../../domain/mfa/store.js';
import type { UserStore } from '../../domain/users/store.js';
import type { InvalidationBus } from '../../platform/cache/invalidation.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

const enrollmentNotFound = () => managementErrors.notFound('Enrollment not found.');

const missingMember = (member: string) => managementErrors.invalidBody(`Payload validation error: 'Missing required property: ${member}' on property ${member}.`);
const duplicateMethod = () => managementErrors.conflict('An authentication method of this type with this value already exists for the user.');
const voiceUnsupported = () => managementErrors.badRequest('Voice calls are not supported by this server.', 'operation_not_supported');

/** The factor of a method an administrator sets (its module says `settable`), with the member it needs present; voice refused. */
function checkSettable(body: CreateAuthenticationMethodBody): SecondFactor & { settable: NonNullable<SecondFactor['settable']> } {
  const factor = factorOfType(body.type);
  if (!factor?.settable) throw managementErrors.badRequest(`Authentication methods of type ${body.type} are not supported by this server.`, 'operation_not_supported');
  if (body[factor.settable.member] === undefined) throw missingMember(factor.settable.member);
  if (factor.settable.preferredMethod && body.preferred_authentication_method === 'voice') throw voiceUnsupported();
  return factor as SecondFactor & { settable: NonNullable<SecondFactor['settable']> };
}

/** Whether an enrolment has the address a new method of the same type would have (one of a kind per address). */
function sameAddress(row: { type: string; email: string | null; phone_number: string | null }, body: CreateAuthenticationMethodBody): boolean {
  if (row.type !== body.type) return false;
  if (body.email !== undefined) return row.email?.toLowerCase() === body.email.toLowerCase();
  return body.phone_number !== undefined && row.phone_number === body.phone_number;
}

/** An enrolment as the Management API's authentication methods show it (`AuthenticationMethodTypeEnum`: the stored type). */
function methodOf(row: Authenticator): UserAuthenticationMethod {
  const method: UserAuthenticationMethod = { id: authenticatorApiId(row), type: row.type, confirmed: row.confirmed === 1, created_at: row.created_at };
  if (row.name !== null) method.name = row.name;
  Object.assign(method, factorOf(row)?.methodFields(row));
  if (row.enrolled_at !== null) method.enrolled_at = row.enrolled_at;
  if (row.last_auth_at !== null) method.last_auth_at = row.last_auth_at;
  return method;
}

/** Guardian enrolments are those of the factors that name one (authenticator app, phone, push). */
function enrollmentOf(row: Authenticator): UsersEnrollment | undefined {
  const kind = factorOf(row)?.enrollment;
  if (!kind) return undefined;
  const enrollment: UsersEnrollment = { id: row.id, status: row.confirmed === 1 ? 'confirmed' : 'pending', type: kind.type };
  if (row.name !== null) enrollment.name = row.name;
  if (row.phone_number !== null) {
    enrollment.name = row.name ?? row.phone_number;
    enrollment.phone_number = row.phone_number;
  }
  enrollment.auth_method = kind.authMethod;
  if (row.enrolled_at !== null) enrollment.enrolled_at = row.enrolled_at;
  if (row.last_auth_at !== null) enrollment.last_auth = row.last_auth_at;
  return enrollment;
}

/** What GuardianMfaService touches. */
export interface GuardianMfaServiceContext extends MfaContext, EnrollmentTicketContext, TenantMailContext {
  readonly box: SecretBox;
  readonly invalidation: InvalidationBus;
  readonly now: () => number;
  readonly stores: MfaContext['stores'] & EnrollmentTicketContext['stores'] & TenantMailContext['stores'] & { readonly mfa: MfaSettingsStore & MfaAuthenticatorStore; readonly users: UserStore };
}

export class GuardianMfaService {
  constructor(private readonly ctx: GuardianMfaServiceContext) {}

  async listFactors(tenant: Tenant): Promise<GuardianFactor[]> {
    const enabled = await this.ctx.stores.mfa.enabledFactors(tenant.id);
    return FACTOR_NAMES.map((name) => ({ enabled: enabled.has(name) && supportedFactor(name), trial_expired: false, name }));
  }

  async setFactor(tenant: Tenant, name: FactorName, enabled: boolean): Promise<{ enabled: boolean }> {
    if (enabled && !supportedFactor(name)) {
      throw managementErrors.badRequest(`The ${name} factor is not supported by this server and cannot be enabled.`, 'operation_not_supported');
    }
    await this.ctx.stores.mfa.setFactor(tenant.id, name, enabled, isoAt(this.ctx.now()));
    this.ctx.invalidation.invalidate(tenant.id);
    return { enabled };
  }

  policies(tenant: Tenant): Promise<MfaPolicy[]> {
    return this.ctx.stores.mfa.policies(tenant.id);
  }

  async setPolicies(tenant: Tenant, policies: MfaPolicy[]): Promise<MfaPolicy[]> {
    await this.ctx.stores.mfa.setPolicies(tenant.id, policies, isoAt(this.ctx.now()));
    this.ctx.invalidation.invalidate(tenant.id);
    return policies;
  }

  /** GET …/sms/providers/twilio: the members set, never the auth token. */
  async twilio(tenant: Tenant): Promise<TwilioReadResponse> {
    const { twilio } = await this.ctx.stores.mfa.smsSettings(tenant.id);
    if (!twilio) return {};
    const { auth_token_enc: _token, ...readable } = twilio;
    return readable;
  }

  /** PUT …/sms/providers/twilio: replaces the settings; the answer echoes the body (the auth token only because the caller sent it). */
  async setTwilio(tenant: Tenant, body: TwilioBody): Promise<TwilioBody> {
    const { auth_token, ...rest } = body;
    const settings: TwilioSettings = { ...rest };
    if (auth_token !== undefined) settings.auth_token_enc = auth_token === null ? null : this.ctx.box.seal(auth_token, twilioAuthTokenContext(tenant.id), tenant.id);
    await this.ctx.stores.mfa.setTwilio(tenant.id, settings, isoAt(this.ctx.now()));
    this.ctx.invalidation.invalidate(tenant.id);
    return body;
  }

  /** GET …/{sms|phone}/selected-provider. */
  async phoneProvider(tenant: Tenant): Promise<{ provider: PhoneProvider }> {
    return { provider: (await this.ctx.stores.mfa.smsSettings(tenant.id)).selectedProvider };
  }

  /**
   * PUT …/{sms|phone}/selected-provider: who sends the phone factor's messages when no phone
   * provider (/branding/phone/providers) is enabled: `twilio` the Twilio settings of
   * …/providers/twilio; `phone-message-hook` the action bound to the send-phone-message trigger
   * (none bound: the message is refused); `auth0`, the default (Gatehouse has no SMS service of its
   * own), that action when one is bound, else Twilio (src/domain/branding/phone-providers.ts).
   */
  async setPhoneProvider(tenant: Tenant, provider: PhoneProvider): Promise<{ provider: PhoneProvider }> {
    await this.ctx.stores.mfa.setPhoneProvider(tenant.id, provider, isoAt(this.ctx.now()));
    this.ctx.invalidation.invalidate(tenant.id);
    return { provider };
  }

  async phoneMessageTypes(tenant: Tenant): Promise<{ message_types: PhoneMessageType[] }> {
    return { message_types: (await this.ctx.stores.mfa.smsSettings(tenant.id)).messageTypes };
  }

  /** PUT …/phone/message-types: Gatehouse sends text messages only, so `voice` is refused rather than kept and never used. */
  async setPhoneMessageTypes(tenant: Tenant, types: PhoneMessageType[]): Promise<{ message_types: PhoneMessageType[] }> {
    const unique = [...new Set(types)];
    if (unique.includes('voice')) throw managementErrors.invalidBody("Payload validation error: 'Gatehouse sends text messages only; voice is not supported' on property message_types.");
    await this.ctx.stores.mfa.setPhoneMessageTypes(tenant.id, unique, isoAt(this.ctx.now()));
    this.ctx.invalidation.invalidate(tenant.id);
    return { message_types: unique };
  }

  async smsTemplates(tenant: Tenant): Promise<SmsTemplates> {
    return (await this.ctx.stores.mfa.smsSettings(tenant.id)).templates;
  }

  async setSmsTemplates(tenant: Tenant, templates: SmsTemplates): Promise<SmsTemplates> {
    for (const [name, template] of Object.entries(templates)) {
      const problem = renderTemplateProblem(template);
      if (problem) throw managementErrors.invalidBody(`Payload validation error: 'Not a valid Liquid template: ${problem}' on property ${name}.`);
    }
    await this.ctx.stores.mfa.setSmsTemplates(tenant.id, templates, isoAt(this.ctx.now()));
    this.ctx.invalidation.invalidate(tenant.id);
    return templates;
  }

  private async requireUser(tenant: Tenant, userId: string): Promise<void> {
    if (!(await this.ctx.stores.users.get(tenant.id, userId))) throw userNotFound();
  }

  private async authenticators(tenant: Tenant, userId: string): Promise<Authenticator[]> {
    await this.requireUser(tenant, userId);
    return (await this.ctx.stores.mfa.authenticators(tenant.id, userId)) as Authenticator[];
  }

  /** GET /users/{id}/enrollments: the confirmed authenticator-app and phone enrolments. */
  async enrollments(tenant: Tenant, userId: string): Promise<UsersEnrollment[]> {
    const rows = await this.authenticators(tenant, userId);
    return rows.filter((r) => r.confirmed === 1).flatMap((r) => enrollmentOf(r) ?? []);
  }

  async enrollment(tenant: Tenant, id: string): Promise<GuardianEnrollment> {
    const row = (await this.ctx.stores.mfa.authenticator(tenant.id, storedIdOf(id))) as Authenticator | undefined;
    const enrollment = row && enrollmentOf(row);
    if (!enrollment) throw enrollmentNotFound();
    const { type: _type, auth_method: _method, ...rest } = enrollment;
    return rest;
  }

  /** DELETE /guardian/enrollments/{id}: 204 whether or not it existed (the document gives no 404). */
  async deleteEnrollment(tenant: Tenant, id: string): Promise<void> {
    const row = await this.ctx.stores.mfa.authenticator(tenant.id, storedIdOf(id));
    if (row) await this.ctx.stores.mfa.deleteAuthenticator(tenant.id, row.user_id, row.id);
  }

  /**
   * DELETE /users/{id}/multifactor/{provider}: the legacy per-provider reset. `google-authenticator`
   * is the authenticator app (the OTP factor): its enrolments go. Duo enrols its users itself and
   * Gatehouse stores no `duo` enrolment, so there is nothing to delete (the user's devices are managed in Duo).
   */
  async deleteMultifactorProvider(tenant: Tenant, userId: string, provider: 'duo' | 'google-authenticator'): Promise<void> {
    const rows = await this.authenticators(tenant, userId);
    if (provider !== 'google-authenticator') return;
    for (const row of rows) if (factorOf(row) === OTP_FACTOR) await this.ctx.stores.mfa.deleteAuthenticator(tenant.id, userId, row.id);
  }

  async authenticationMethods(
    tenant: Tenant,
    userId: string,
    query: { page?: number; per_page?: number; include_totals?: boolean },
  ): Promise<OffsetList<'authenticators', UserAuthenticationMethod>> {
    const page = offsetPaging(query);
    const all = (await this.authenticators(tenant, userId)).map(methodOf);
    const items = all.slice(page.page * page.perPage, (page.page + 1) * page.perPage);
    return offsetList('authenticators', items, page, all.length);
  }

  async authenticationMethod(tenant: Tenant, userId: string, id: string): Promise<UserAuthenticationMethod> {
    const row = (await this.authenticators(tenant, userId)).find((r) => r.id === storedIdOf(id));
    if (!row) throw managementErrors.notFound('Authentication method not found.');
    return methodOf(row);
  }

  /**
   * POST /users/{id}/authentication-methods: an administrator's enrolment,
   * confirmed at once (the administrator vouches for it). One of a kind per
   * address: a second email or phone method with the same address is 409.
   */
  async createAuthenticationMethod(tenant: Tenant, userId: string, body: CreateAuthenticationMethodBody): Promise<CreatedAuthenticationMethod> {
    const existing = await this.authenticators(tenant, userId);
    checkSettable(body);
    if (existing.some((r) => sameAddress(r, body))) throw duplicateMethod();
    return this.#add(tenant, userId, body);
  }

  /**
   * PUT /users/{id}/authentication-methods: the user's methods of the types
   * an administrator may set (phone, email, totp: the factors whose module
   * says `settable`) are replaced by `bodies`; their security keys,
   * passkeys, push devices and recovery code stay, as the body cannot name
   * them (Gatehouse's reading of "replace all": a PUT never locks a user out
   * of a passkey). Every method is checked before anything changes: a
   * missing member is 400, the same address twice 409.
   */
  async setAuthenticationMethods(tenant: Tenant, userId: string, bodies: SetAuthenticationMethodsBody): Promise<CreatedAuthenticationMethod[]> {
    const existing = await this.authenticators(tenant, userId);
    bodies.forEach(checkSettable);
    if (bodies.some((body, i) => bodies.slice(0, i).some((earlier) => earlier.type === body.type && sameAddress({ type: earlier.type, email: earlier.email ?? null, phone_number: earlier.phone_number ?? null }, body)))) {
      throw duplicateMethod();
    }
    for (const row of existing) if (factorOf(row)?.settable) await this.ctx.stores.mfa.deleteAuthenticator(tenant.id, userId, row.id);
    const created: CreatedAuthenticationMethod[] = [];
    for (const body of bodies) created.push(await this.#add(tenant, userId, body));
    return created;
  }

  /**
   * PATCH /users/{id}/authentication-methods/{id}: its name, and for a phone
   * its preferred method (`sms`; `voice` is not supported). 404 when the user
   * has no such method; a preferred method for another kind is 400.
   */
  async updateAuthenticationMethod(tenant: Tenant, userId: string, id: string, body: UpdateAuthenticationMethodBody): Promise<UserAuthenticationMethod> {
    const row = (await this.authenticators(tenant, userId)).find((r) => r.id === storedIdOf(id));
    if (!row) throw managementErrors.notFound('Authentication method not found.');
    if (body.preferred_authentication_method !== undefined) {
      if (!factorOf(row)?.settable?.preferredMethod) throw managementErrors.invalidBody('preferred_authentication_method applies to phone authentication methods only.');
      if (body.preferred_authentication_method === 'voice') throw voiceUnsupported();
    }
    if (body.name === undefined) return methodOf(row);
    const name = body.name === '' ? null : body.name;
    if (!(await this.ctx.stores.mfa.renameAuthenticator(tenant.id, userId, row.id, name))) throw managementErrors.notFound('Authentication method not found.');
    return methodOf({ ...row, name });
  }

  /** A new confirmed method (the administrator vouches for it), checked by checkSettable. */
  async #add(tenant: Tenant, userId: string, body: CreateAuthenticationMethodBody): Promise<CreatedAuthenticationMethod> {
    const factor = checkSettable(body);
    const name = body.name ?? null;
    const value = body[factor.settable.member]!;
    const row =
      factor.challenge === 'code'
        ? await addTotpAuthenticator(this.ctx, tenant, userId, value.replace(/=+$/, '').toUpperCase(), name)
        : await addOobAuthenticator(this.ctx, tenant.id, userId, factor.type as 'email' | 'phone', value, { confirmed: true, name });
    return {
      id: authenticatorApiId(row),
      type: body.type,
      ...(body.name !== undefined && { name: body.name }),
      ...(body.phone_number !== undefined && { phone_number: body.phone_number }),
      ...(body.email !== undefined && { email: body.email }),
      ...(factor.settable.preferredMethod && { preferred_authentication_method: body.preferred_authentication_method ?? 'sms' }),
    };
  }

  async deleteAuthenticationMethods(tenant: Tenant, userId: string): Promise<void> {
    await this.requireUser(tenant, userId);
    await this.ctx.stores.mfa.deleteAuthenticators(tenant.id, userId);
  }

  async deleteAuthenticationMethod(tenant: Tenant, userId: string, id: string): Promise<void> {
    await this.requireUser(tenant, userId);
    if (!(await this.ctx.stores.mfa.deleteAuthenticator(tenant.id, userId, storedIdOf(id)))) throw managementErrors.notFound('Authentication method not found.');
  }

  /**
   * POST /guardian/enrollments/ticket: a ticket URL on which the user enrols
   * an authenticator app (the only `factor` the ticket page offers), mailed
   * to them with `send_mail`. A user who already has a second factor needs
   * `allow_multiple_enrollments`.
   */
  async createEnrollmentTicket(tenant: Tenant, body: EnrollmentTicketBody): Promise<EnrollmentTicketResponse> {
    const user = await this.ctx.stores.users.get(tenant.id, body.user_id);
    if (!user) throw userNotFound();
    if (body.factor !== undefined && body.factor !== OTP_FACTOR.name) {
      throw managementErrors.badRequest(`Enrollment tickets for the ${body.factor} factor are not supported by this server; use otp.`, 'operation_not_supported');
    }
    if (!factorEnabled(await this.ctx.stores.mfa.enabledFactors(tenant.id), OTP_FACTOR)) throw managementErrors.badRequest('The otp factor is not enabled.');
    if (body.allow_multiple_enrollments !== true && secondFactors((await this.ctx.stores.mfa.authenticators(tenant.id, user.user_id)) as Authenticator[]).length > 0) {
      throw managementErrors.badRequest('The user is already enrolled in multi-factor authentication; set allow_multiple_enrollments to enroll another factor.');
    }
    const to = body.email ?? user.email;
    if (body.send_mail === true && !to) throw managementErrors.badRequest('The user has no email address to send the ticket to; give one in email.');
    const { ticket, id } = issueEnrollmentTicket(this.ctx, tenant, user.user_id);
    const url = `${tenant.issuer}guardian/enroll?ticket=${encodeURIComponent(ticket)}`;
    if (body.send_mail === true) {
      // Handed over without waiting; the message carries a live link, never logged.
      await sendTenantMail(
        this.ctx,
        tenant,
        'enrollment_email',
        to!,
        {
          subject: `Set up two-step verification for ${tenant.name}`,
          text: `To set up two-step verification for your ${tenant.name} account, open this link:\n\n${url}\n\nIf you did not expect this message, ignore it.\n`,
        },
        { url, link: url, user: userVariables(user) },
      );
    }
    return { ticket_id: id, ticket_url: url };
  }

  /** POST /users/{id}/recovery-code-regeneration: 404 "Enrollment not found." for a user without a confirmed second factor. */
  async regenerateRecoveryCode(tenant: Tenant, userId: string): Promise<{ recovery_code: string }> {
    if (secondFactors(await this.authenticators(tenant, userId)).length === 0) throw enrollmentNotFound();
    return { recovery_code: await regenerateRecoveryCode(this.ctx, tenant.id, userId) };
  }
}
