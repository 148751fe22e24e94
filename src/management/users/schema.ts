/**
 * User schemas, from the service's OpenAPI document (`CreateUserRequestContent`,
 * `UpdateUserRequestContent`, `UserResponseSchema`). Descriptions appear in
 * validation messages, so they carry no trailing period.
 *
 * Differences from the document, on purpose:
 * - `picture` uses the `uri` format: the document's `strict-uri` is the
 *   service's own and not registered here;
 * - unknown members of an update are refused (STYLE 6), though the document
 *   declares `additionalProperties: true` for it;
 * - the update body is the service's whole `UpdateUserRequestContent`, so the
 *   body it documents for a password change (`{password, connection}`) works.
 *
 * `app_metadata` and `user_metadata` get no size bound of their own: the
 * service documents 16 MB for each, more than the 1 MiB body limit, so the
 * body limit is what bounds them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FreeObject } from '../../platform/http/schema-types.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const Nullable = <T extends Record<string, unknown>>(schema: T & { type: string }) =>
  Type.Unsafe<string | null>({ ...schema, type: [schema.type, 'null'] });

const appMetadata = FreeObject({ description: 'Data related to the user that does affect the application\'s core functionality' }, null);
const userMetadata = FreeObject({ description: 'Data related to the user that does not affect the application\'s core functionality' }, null);

const emailSpec = { type: 'string', format: 'email', description: "The user's email" } as const;
const phoneSpec = { type: 'string', pattern: '^\\+[0-9]{1,15}$', description: "The user's phone number (following the E.164 recommendation)" } as const;
const givenNameSpec = { type: 'string', minLength: 1, maxLength: 150, description: "The user's given name(s)" } as const;
const familyNameSpec = { type: 'string', minLength: 1, maxLength: 150, description: "The user's family name(s)" } as const;
const nameSpec = { type: 'string', minLength: 1, maxLength: 300, description: "The user's full name" } as const;
const nicknameSpec = { type: 'string', minLength: 1, maxLength: 300, description: "The user's nickname" } as const;
const pictureSpec = { type: 'string', format: 'uri', description: "A URI pointing to the user's picture" } as const;
const usernameSpec = { type: 'string', minLength: 1, maxLength: 128, description: "The user's username. Only valid if the connection requires a username" } as const;
const passwordSpec = { type: 'string', minLength: 1, description: 'Initial password for this user. Only valid for auth0 connection strategy' } as const;

const blocked = Type.Boolean({ description: 'Whether this user was blocked by an administrator (true) or not (false)' });
const emailVerified = Type.Boolean({ description: 'Whether this email address is verified (true) or unverified (false)' });
const verifyEmail = Type.Boolean({
  description: 'Whether the user will receive a verification email after creation (true) or no email (false). Overrides behavior of `email_verified` parameter',
});

export const CreateUserBody = Type.Object(
  {
    connection: Type.String({ minLength: 1, description: 'Name of the connection this user should be created in' }),
    email: Type.Optional(Type.Unsafe<string>(emailSpec)),
    phone_number: Type.Optional(Type.Unsafe<string>(phoneSpec)),
    user_metadata: Type.Optional(userMetadata),
    blocked: Type.Optional(blocked),
    email_verified: Type.Optional(emailVerified),
    app_metadata: Type.Optional(appMetadata),
    given_name: Type.Optional(Type.Unsafe<string>(givenNameSpec)),
    family_name: Type.Optional(Type.Unsafe<string>(familyNameSpec)),
    name: Type.Optional(Type.Unsafe<string>(nameSpec)),
    nickname: Type.Optional(Type.Unsafe<string>(nicknameSpec)),
    picture: Type.Optional(Type.Unsafe<string>(pictureSpec)),
    user_id: Type.Optional(
      Type.String({ minLength: 0, maxLength: 255, pattern: '^\\S*$', description: "The external user's id provided by the identity provider" }),
    ),
    password: Type.Optional(Type.Unsafe<string>(passwordSpec)),
    verify_email: Type.Optional(verifyEmail),
    username: Type.Optional(Type.Unsafe<string>(usernameSpec)),
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    blocked: Type.Optional(blocked),
    email_verified: Type.Optional(emailVerified),
    email: Type.Optional(Nullable(emailSpec)),
    phone_number: Type.Optional(Nullable(phoneSpec)),
    user_metadata: Type.Optional(userMetadata),
    app_metadata: Type.Optional(appMetadata),
    given_name: Type.Optional(Nullable(givenNameSpec)),
    family_name: Type.Optional(Nullable(familyNameSpec)),
    name: Type.Optional(Nullable(nameSpec)),
    nickname: Type.Optional(Nullable(nicknameSpec)),
    picture: Type.Optional(Nullable(pictureSpec)),
    phone_verified: Type.Optional(Type.Boolean({ description: 'Whether this phone number has been verified (true) or not (false)' })),
    verify_email: Type.Optional(verifyEmail),
    verify_phone_number: Type.Optional(
      Type.Boolean({ description: 'Whether this user will receive a text after changing the phone number (true) or no text (false). Only valid when changing phone number for SMS connections' }),
    ),
    password: Type.Optional(Nullable({ ...passwordSpec, description: 'New password for this user. Only valid for database connections' })),
    connection: Type.Optional(Type.String({ minLength: 1, description: 'Name of the connection to target for this user update' })),
    client_id: Type.Optional(Type.String({ minLength: 1, description: 'Auth0 client ID. Only valid when updating email address' })),
    username: Type.Optional(Nullable(usernameSpec)),
  },
  { additionalProperties: false },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

const optionalString = (description: string) => Type.Optional(Type.String({ description }));

/** `UserProfileData`: what a linked identity had as a user of its own. */
const ProfileData = Type.Object(
  {
    email: optionalString('Email address of this user'),
    email_verified: Type.Boolean({ description: 'Whether this email address is verified (true) or unverified (false)' }),
    name: optionalString('Name of this user'),
    username: optionalString('Username of this user'),
    given_name: optionalString('Given name/first name/forename of this user'),
    family_name: optionalString('Family name/last name/surname of this user'),
    nickname: optionalString('Preferred nickname or alias of this user'),
    picture: optionalString('URL to picture, photo, or avatar of this user'),
    phone_number: optionalString('Phone number for this user'),
    phone_verified: Type.Optional(Type.Boolean({ description: 'Whether this phone number is verified (true) or unverified (false)' })),
  },
  { additionalProperties: false },
);

/** `UserIdentity`: a user's own identity, or one linked to it (with `profileData`). */
export const Identity = Type.Object(
  {
    connection: Type.String({ description: 'Name of the connection containing this identity' }),
    user_id: Type.Union([Type.String(), Type.Integer()], { description: 'The unique identifier of the user for the identity (a number for GitHub identities, as the service sends it)' }),
    provider: Type.String({ description: 'The type of identity provider' }),
    isSocial: Type.Boolean({ description: 'Whether this identity is from a social provider (true) or not (false)' }),
    profileData: Type.Optional(ProfileData),
    access_token: Type.Optional(Type.String({ description: "The identity provider's access token (only with read:user_idp_tokens)" })),
    refresh_token: Type.Optional(Type.String({ description: "The identity provider's refresh token (only with read:user_idp_tokens)" })),
  },
  { additionalProperties: false },
);

/** Every member declared: the response serialiser drops anything else, the password hash above all. */
export const UserResponse = Type.Object(
  {
    user_id: Type.String({ description: 'ID of the user which can be used when interacting with other APIs' }),
    email: optionalString('Email address of this user'),
    email_verified: Type.Boolean({ description: 'Whether this email address is verified (true) or unverified (false)' }),
    username: optionalString('Username of this user'),
    phone_number: optionalString('Phone number for this user'),
    phone_verified: Type.Optional(Type.Boolean({ description: 'Whether this phone number has been verified (true) or not (false)' })),
    created_at: Type.String({ description: 'Date and time when this user was created' }),
    updated_at: Type.String({ description: 'Date and time when this user was last updated/modified' }),
    identities: Type.Array(Identity),
    app_metadata: FreeObject({ description: 'User metadata to which this user has read-only access' }, null),
    user_metadata: FreeObject({ description: 'User metadata to which this user has read/write access' }, null),
    picture: optionalString('URL to picture, photo, or avatar of this user'),
    name: optionalString('Name of this user'),
    nickname: optionalString('Preferred nickname or alias of this user'),
    given_name: optionalString('Given name/first name/forename of this user'),
    family_name: optionalString('Family name/last name/surname of this user'),
    last_login: optionalString('Last date and time this user logged in'),
    last_password_reset: optionalString('Last date and time this user had their password reset'),
    logins_count: Type.Integer({ description: 'Total number of logins this user has performed' }),
    blocked: Type.Boolean({ description: 'Whether this user was blocked by an administrator (true) or is not (false)' }),
  },
  { additionalProperties: false },
);

/** The path id of /users/{id}…; control characters are refused (src/management/strings.ts). */
export function userIdParams(description: string) {
  return Type.Object({ id: Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS, description }) });
}
