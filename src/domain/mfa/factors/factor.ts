/**
 * One second factor behind one interface, as supabase/auth's
 * `internal/api/mfa.go` gives each factor its own enrol, challenge and
 * verify: the Guardian factor that switches it on, the type its enrolments
 * are stored under, how it is challenged, and what each surface shows of an
 * enrolment (the /mfa API's `/mfa/authenticators`, the Management API's
 * `/users/{id}/authentication-methods` and Guardian enrolments). The
 * registry (./registry.ts) holds one module per factor; the MFA step, the
 * /mfa API and the Management API read it and never compare a type's name.
 */
import type { MfaAuthenticatorRow } from '../rows.js';
import type { FactorName } from '../model.js';

/** A stored enrolment, typed by its factor's stored type. */
export type Enrolment = MfaAuthenticatorRow;

/**
 * How a login is challenged with the factor:
 * - `code`: the user types a code the factor computes (TOTP), nothing sent;
 * - `binding-code`: a code is sent (email, SMS), the oob_code names it;
 * - `push`: a transaction is pushed to the enrolled device;
 * - `webauthn`: the browser signs a challenge with the enrolled credential;
 * - `redirect`: the browser is sent to the factor's own service, which
 *   enrols and challenges the user itself and sends the browser back (Duo);
 *   nothing is stored for the user;
 * - `none`: it only stands in for another factor (a recovery code).
 */
export type ChallengeKind = 'code' | 'binding-code' | 'push' | 'webauthn' | 'redirect' | 'none';

/** An enrolment as GET /mfa/authenticators lists it (wire notes §13). */
export interface ApiAuthenticator {
  id: string;
  authenticator_type: string;
  active: boolean;
  oob_channel?: string;
  name?: string;
}

/** The parts of a Management authentication method that depend on the factor. */
export interface MethodFields {
  preferred_authentication_method?: string;
  phone_number?: string;
  email?: string;
  key_id?: string;
  public_key?: string;
  relying_party_identifier?: string;
  credential_device_type?: string;
  credential_backed_up?: boolean;
}

/** A factor's name: the Guardian factor that enables it, or `passkey` (a database connection's first factor, enabled by the connection). */
export type MethodName = FactorName | 'passkey';

export interface SecondFactor {
  /** The Guardian factor that must be enabled for an enrolment to be used as a second factor (`passkey`: none, see ./passkey.ts). */
  readonly name: MethodName;
  /** The enrolments' stored `type`, which is also the Management API's authentication-method type. */
  readonly type: string;
  /** The /mfa API's id prefix (`totp|dev_…`). */
  readonly apiPrefix: string;
  /** Whether an enrolment can be a login's second factor (a recovery code only stands in for one). */
  readonly secondFactor: boolean;
  /** Whether an enrolment logs a user in on its own, in place of a password (a passkey). */
  readonly firstFactor?: boolean;
  readonly challenge: ChallengeKind;
  /** The /mfa API: `challenge_type` (otp or oob) and `oob_channel`; absent when the API cannot challenge it. */
  readonly api?: { readonly challengeType: 'otp' | 'oob'; readonly oobChannel?: string };
  /** The token endpoint's `mfa_requirements` (wire notes §5.1): the type of a confirmed enrolment, and of the factor to enrol (absent: not through the /mfa API). */
  readonly requirement: { readonly challenge: string; readonly enroll?: string };
  /** The hosted MFA page's `method` for this factor. */
  readonly pageMethod?: string;
  /** GET /mfa/authenticators: how an enrolment is listed (id and active are filled in by the registry). */
  listed(row: Enrolment): Omit<ApiAuthenticator, 'id' | 'active'>;
  /** GET /users/{id}/authentication-methods: the factor's own members. */
  methodFields(row: Enrolment): MethodFields;
  /** WebAuthn factors: the authenticators the browser is to offer (absent: any), and whether the user must be verified (PIN, biometrics). */
  readonly webauthn?: { readonly attachment?: 'cross-platform' | 'platform'; readonly userVerification: 'required' | 'preferred' | 'discouraged' };
  /** Each challenge sent costs money (a text message) or the user's patience (a notification): the send limit's purpose (src/authentication/abuse-limits.ts). */
  readonly sendLimit?: string;
  /**
   * The Management API's POST/PUT /users/{id}/authentication-methods: an
   * administrator may set the factor's enrolments, giving `member` (the
   * secret or address; `preferredMethod`: the phone's
   * `preferred_authentication_method` applies); absent when not.
   */
  readonly settable?: { readonly member: 'totp_secret' | 'email' | 'phone_number'; readonly preferredMethod: boolean };
  /** Guardian enrolments (/users/{id}/enrollments): `type` and `auth_method`, absent when not listed there. */
  readonly enrollment?: { readonly type: string; readonly authMethod: 'authenticator' | 'guardian' | 'sms' };
}
