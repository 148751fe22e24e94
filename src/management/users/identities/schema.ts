/**
 * Account linking's schemas, from the service's OpenAPI document
 * (`LinkUserIdentityRequestContent`, `UserIdentity`,
 * `DeleteUserIdentityResponseContent`, `UserIdentityProviderEnum`).
 * Descriptions appear in validation messages, so they carry no trailing period.
 */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../../platform/http/schema-types.js';
import { NO_CONTROL_CHARACTERS } from '../../strings.js';
import { Identity } from '../schema.js';

/** `UserIdentityProviderEnum`. */
export const IDENTITY_PROVIDERS = [
  'ad', 'adfs', 'amazon', 'apple', 'dropbox', 'bitbucket', 'auth0-oidc', 'auth0', 'baidu', 'bitly', 'box', 'custom', 'daccount', 'dwolla',
  'email', 'evernote-sandbox', 'evernote', 'exact', 'facebook', 'fitbit', 'github', 'google-apps', 'google-oauth2', 'instagram', 'ip',
  'line', 'linkedin', 'oauth1', 'oauth2', 'office365', 'oidc', 'okta', 'paypal', 'paypal-sandbox', 'pingfederate', 'planningcenter',
  'salesforce-community', 'salesforce-sandbox', 'salesforce', 'samlp', 'sharepoint', 'shopify', 'shop', 'sms', 'soundcloud',
  'thirtysevensignals', 'twitter', 'untappd', 'vkontakte', 'waad', 'weibo', 'windowslive', 'wordpress', 'yahoo', 'yandex',
] as const;

export const LinkIdentityBody = Type.Object(
  {
    provider: Type.Optional(StringEnum(IDENTITY_PROVIDERS, { description: 'Identity provider of the secondary user account being linked' })),
    connection_id: Type.Optional(
      Type.String({ pattern: '^con_[A-Za-z0-9]{16}$', description: 'connection_id of the secondary user account being linked when more than one `auth0` database provider exists' }),
    ),
    // `UserId`: a string, or an integer (the service's numeric ids of some providers).
    user_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS }), Type.Integer()], { description: 'user_id of the secondary user account being linked' }),
    ),
    link_with: Type.Optional(Type.String({ minLength: 1, description: 'JWT for the secondary account being linked' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type LinkIdentityBody = Static<typeof LinkIdentityBody>;

export const LinkParams = Type.Object({
  id: Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the primary user account to link a second user account to' }),
});

export const UnlinkParams = Type.Object({
  id: Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the primary user account' }),
  provider: StringEnum(IDENTITY_PROVIDERS, { description: 'Identity provider name of the secondary linked account' }),
  user_id: Type.String({ minLength: 1, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the secondary linked account' }),
});

/** The user's identities after the change: its own first, then the linked ones with their `profileData`. */
export const Identities = Type.Array(Identity, { description: "An array of objects with information about the user's identities" });
