/**
 * Which connections take SCIM provisioning: the enterprise strategies, one
 * list (the service's: `samlp`, `oidc`, `okta`, `waad`, `google-apps`, for
 * those Gatehouse implements; a new one is one name here).
 */
export const SCIM_STRATEGIES: readonly string[] = ['samlp', 'oidc', 'okta', 'waad', 'google-apps'];

export const takesScim = (strategy: string): boolean => SCIM_STRATEGIES.includes(strategy);

/**
 * The SCIM scopes of a token, one per operation on /Users (the service's) and
 * on /Groups (the same five verbs on `groups`, as the service names its group
 * provisioning scopes). A token created without `scopes` has all ten.
 */
export const SCIM_TOKEN_SCOPES = [
  'get:users',
  'post:users',
  'put:users',
  'patch:users',
  'delete:users',
  'get:groups',
  'post:groups',
  'put:groups',
  'patch:groups',
  'delete:groups',
] as const;
export type ScimTokenScope = (typeof SCIM_TOKEN_SCOPES)[number];

/** A connection holds at most this many tokens (the service's 409 "Maximum of 2 tokens already issued for this connection"). */
export const MAX_SCIM_TOKENS = 2;

/** `token_lifetime` must be greater than this many seconds (the document). */
export const MIN_SCIM_TOKEN_LIFETIME = 900;
