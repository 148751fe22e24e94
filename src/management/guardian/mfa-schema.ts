/**
 * Schemas of the MFA factors, policies and users' enrolments in the
 * Management API, from the service's OpenAPI document (`GuardianFactor`,
 * `GuardianFactorNameEnum`, `SetGuardianFactorRequestContent`,
 * `MFAPolicyEnum`, `UsersEnrollment`, `GetGuardianEnrollmentResponseContent`,
 * `UserAuthenticationMethod`, `CreateUserAuthenticationMethodRequestContent`
 * and `…ResponseContent`, `RegenerateUsersRecoveryCodeResponseContent`).
 * Only the members Gatehouse can fill are declared: nothing else is sent.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FACTOR_NAMES, MFA_POLICIES } from '../../domain/mfa/model.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const factorName = StringEnum(FACTOR_NAMES, {
  description: 'Factor name. Can be `sms`, `push-notification`, `email`, `duo` `otp` `webauthn-roaming`, `webauthn-platform`, or `recovery-code`.',
});

export const FactorParams = Type.Object({ name: factorName });

export const GuardianFactor = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Whether this factor is enabled (true) or disabled (false).' }),
    trial_expired: Type.Optional(Type.Boolean({ description: 'Whether trial limits have been exceeded.' })),
    name: Type.Optional(factorName),
  },
  { additionalProperties: false },
);
export type GuardianFactor = Static<typeof GuardianFactor>;

export const FactorList = Type.Array(GuardianFactor);

const policy = StringEnum(MFA_POLICIES, { description: 'The MFA policy' });
export const Policies = Type.Array(policy, { maxItems: MFA_POLICIES.length, uniqueItems: true });
export type Policies = Static<typeof Policies>;

const enrollmentStatus = StringEnum(['pending', 'confirmed'] as const, { description: 'Status of this enrollment. Can be `pending` or `confirmed`.' });
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

export const UsersEnrollment = Type.Object(
  {
    id: Type.String({ description: 'ID of this enrollment.' }),
    status: Type.Optional(enrollmentStatus),
    type: Type.Optional(Type.String({ description: 'Type of enrollment.' })),
    name: Type.Optional(Type.String({ description: 'Name of enrollment (usually phone number).' })),
    phone_number: Type.Optional(Type.String({ description: 'Phone number for this enrollment.' })),
    auth_method: Type.Optional(StringEnum(['authenticator', 'guardian', 'sms'] as const, { description: 'Authentication method for this enrollment.' })),
    enrolled_at: Type.Optional(dateTime('Start date and time of this enrollment.')),
    last_auth: Type.Optional(dateTime('Last authentication date and time of this enrollment.')),
  },
  { additionalProperties: false },
);
export type UsersEnrollment = Static<typeof UsersEnrollment>;

export const EnrollmentList = Type.Array(UsersEnrollment);

export const GuardianEnrollment = Type.Object(
  {
    id: Type.String({ description: 'ID for this enrollment.' }),
    status: Type.Optional(enrollmentStatus),
    name: Type.Optional(Type.String({ description: 'Device name (only for push notification).' })),
    phone_number: Type.Optional(Type.String({ description: 'Phone number.' })),
    enrolled_at: Type.Optional(Type.String({ description: 'Enrollment date and time.' })),
    last_auth: Type.Optional(Type.String({ description: 'Last authentication date and time.' })),
  },
  { additionalProperties: false },
);
export type GuardianEnrollment = Static<typeof GuardianEnrollment>;

export const EnrollmentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the enrollment.' }),
});

const methodType = StringEnum(
  ['recovery-code', 'totp', 'push', 'phone', 'email', 'email-verification', 'webauthn-roaming', 'webauthn-platform', 'guardian', 'passkey', 'password'] as const,
);
const preferred = StringEnum(['voice', 'sms'] as const, { description: 'Applies to phone authentication methods only. The preferred communication method.' });

export const UserAuthenticationMethod = Type.Object(
  {
    id: Type.String({ description: 'The ID of the authentication method (auto generated)' }),
    type: methodType,
    confirmed: Type.Optional(Type.Boolean({ description: 'The authentication method status' })),
    name: Type.Optional(Type.String({ description: 'A human-readable label to identify the authentication method' })),
    preferred_authentication_method: Type.Optional(preferred),
    phone_number: Type.Optional(Type.String({ description: 'Applies to phone authentication methods only.' })),
    email: Type.Optional(Type.String({ description: 'Applies to email authentication methods only.' })),
    key_id: Type.Optional(Type.String({ description: 'Applies to webauthn authentication methods only. The id of the credential.' })),
    public_key: Type.Optional(Type.String({ description: 'Applies to webauthn authentication methods only. The public key.' })),
    credential_device_type: Type.Optional(Type.String({ description: 'Applies to passkeys only. The kind of device the credential is stored on.' })),
    credential_backed_up: Type.Optional(Type.Boolean({ description: 'Applies to passkeys only. Whether the credential was backed up.' })),
    relying_party_identifier: Type.Optional(Type.String({ description: 'Applies to webauthn authentication methods only. The relying party identifier.' })),
    created_at: dateTime('Authenticator creation date'),
    enrolled_at: Type.Optional(dateTime('Enrollment date')),
    last_auth_at: Type.Optional(dateTime('Last authentication')),
  },
  { additionalProperties: false },
);
export type UserAuthenticationMethod = Static<typeof UserAuthenticationMethod>;

const createdType = StringEnum(['phone', 'email', 'totp', 'webauthn-roaming', 'passkey'] as const);

export const CreateAuthenticationMethodBody = Type.Object(
  {
    type: createdType,
    name: Type.Optional(Type.String({ maxLength: 20, pattern: NO_CONTROL_CHARACTERS, description: 'A human-readable label to identify the authentication method.' })),
    totp_secret: Type.Optional(Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z2-7]+=*$', description: 'Base32 encoded secret for TOTP generation.' })),
    phone_number: Type.Optional(
      Type.String({ minLength: 2, maxLength: 30, pattern: '^\\+[0-9]{1,15}$', description: 'Applies to phone authentication methods only. The destination phone number used to send verification codes via text and voice.' }),
    ),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Applies to email authentication methods only. The email address used to send verification messages.' })),
    preferred_authentication_method: Type.Optional(preferred),
  },
  { additionalProperties: false },
);
export type CreateAuthenticationMethodBody = Static<typeof CreateAuthenticationMethodBody>;

export const CreatedAuthenticationMethod = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'The ID of the newly created authentication method (automatically generated by the application)' })),
    type: createdType,
    name: Type.Optional(Type.String()),
    phone_number: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    preferred_authentication_method: Type.Optional(preferred),
  },
  { additionalProperties: false },
);
export type CreatedAuthenticationMethod = Static<typeof CreatedAuthenticationMethod>;

/** PUT /users/{id}/authentication-methods: the methods that replace the user's (`SetUserAuthenticationMethods`), at most MAX_SET_METHODS. */
export const MAX_SET_METHODS = 20;
const settable = CreateAuthenticationMethodBody.properties;
export const SetAuthenticationMethodsBody = Type.Array(
  Type.Object(
    {
      type: StringEnum(['phone', 'email', 'totp'] as const),
      preferred_authentication_method: Type.Optional(settable.preferred_authentication_method),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: NO_CONTROL_CHARACTERS, description: 'A human-readable label to identify the authentication method.' })),
      phone_number: Type.Optional(settable.phone_number),
      email: Type.Optional(settable.email),
      totp_secret: Type.Optional(settable.totp_secret),
    },
    { additionalProperties: false },
  ),
  { maxItems: MAX_SET_METHODS },
);
export type SetAuthenticationMethodsBody = Static<typeof SetAuthenticationMethodsBody>;

/** PATCH /users/{id}/authentication-methods/{authentication_method_id} (`UpdateUserAuthenticationMethodRequestContent`). */
export const UpdateAuthenticationMethodBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 20, pattern: NO_CONTROL_CHARACTERS, description: 'A human-readable label to identify the authentication method.' })),
    preferred_authentication_method: Type.Optional(preferred),
  },
  { additionalProperties: false },
);
export type UpdateAuthenticationMethodBody = Static<typeof UpdateAuthenticationMethodBody>;

export const AuthenticationMethodParams = Type.Object({
  id: Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS, description: 'The ID of the user in question.' }),
  authentication_method_id: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'The ID of the authentication method.' }),
});

export const RecoveryCodeResponse = Type.Object(
  { recovery_code: Type.Optional(Type.String({ description: 'New account recovery code.' })) },
  { additionalProperties: false },
);

export const EnrollmentTicketBody = Type.Object(
  {
    user_id: Type.String({ minLength: 1, maxLength: 300, pattern: NO_CONTROL_CHARACTERS, description: 'user_id for the enrollment ticket' }),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'alternate email to which the enrollment email will be sent' })),
    send_mail: Type.Optional(Type.Boolean({ description: 'Send an email to the user to start the enrollment' })),
    email_locale: Type.Optional(Type.String({ maxLength: 35, description: 'Locale of the enrollment email' })),
    factor: Type.Optional(StringEnum(['push-notification', 'phone', 'email', 'otp', 'webauthn-roaming', 'webauthn-platform'] as const, { description: 'Which factor the user must enroll with' })),
    allow_multiple_enrollments: Type.Optional(Type.Boolean({ description: 'Allows a user who has previously enrolled in MFA to enroll with additional factors' })),
  },
  { additionalProperties: false },
);
export type EnrollmentTicketBody = Static<typeof EnrollmentTicketBody>;

export const EnrollmentTicketResponse = Type.Object(
  {
    ticket_id: Type.String({ description: 'The ticket_id used to identify the enrollment' }),
    ticket_url: Type.String({ description: 'The url you can use to start enrollment' }),
  },
  { additionalProperties: false },
);
export type EnrollmentTicketResponse = Static<typeof EnrollmentTicketResponse>;
