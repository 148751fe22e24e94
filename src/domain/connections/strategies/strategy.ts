/**
 * A connection strategy (`auth0`, `samlp`, `email`, `sms`, `oidc` …): one
 * module behind this interface, listed once in ./index.ts. The Management API
 * reads the registry to accept a strategy, check and complete its options and
 * shape what it returns; the users of a federated strategy take their id from
 * it (src/domain/users/federated-user.ts). How a login through the strategy
 * starts and how its callback completes is the Authentication API's half,
 * registered under the same name (src/authentication/connections/).
 */
import type { FederationEndpointOverrides } from '../../../platform/federation-endpoints.js';
import type { UpstreamFetch } from '../../../platform/http/upstream-fetch.js';
import type { ConnectionRow } from '../../rows.js';

/** The families the service groups strategies in (its dashboard, its logs' `strategy_type`). */
export type StrategyKind = 'database' | 'passwordless' | 'enterprise' | 'social';

/** What is wrong with a connection's options, named by property; the Management API answers it as a 400. */
export interface OptionsProblem {
  property: string;
  message: string;
}

/** What a strategy may use while completing options. */
export interface StrategyDeps {
  /** HTTPS toward the upstream through the outbound guard (src/platform/http/upstream-fetch.ts). */
  fetch: UpstreamFetch;
  /** The operator's replacements of providers' fixed endpoints (GATEHOUSE_FEDERATION_ENDPOINTS; tests and staging). */
  endpoints?: FederationEndpointOverrides;
}

export interface ConnectionStrategy {
  readonly name: string;
  readonly kind: StrategyKind;
  /** Whether its users' identities are social ones (`identities[].isSocial`). */
  readonly isSocial: boolean;
  /** The options' check on create and update; undefined when they are fine. */
  optionsProblem(options: Record<string, unknown>): OptionsProblem | undefined;
  /**
   * The options as stored, from checked ones: the members the service
   * computes added (an OpenID provider's `oidc_metadata`, read from its
   * discovery document). Throws a `StrategyOptionsError` when one cannot be had.
   */
  prepareOptions?(options: Record<string, unknown>, deps: StrategyDeps): Promise<Record<string, unknown>>;
  /**
   * Whether the upstream answers now (GET /connections/{id}/status): undefined
   * when it does, else why not. A strategy without an upstream is always online.
   */
  status?(options: Readonly<Record<string, unknown>>, deps: StrategyDeps): Promise<string | undefined>;
  /** The user id of an identity `id` at this connection (`samlp|{connection}|{id}`, `github|{id}`). */
  userId(connection: Pick<ConnectionRow, 'name'>, id: string): string;
  /**
   * `identities[].user_id` of the part after the strategy (default the part
   * as is): GitHub's is its numeric id as a JSON number, as the service's.
   */
  identityUserId?(part: string): string | number;
}

/** A computed option that could not be had (a discovery document that cannot be read): a 400 of the Management API. */
export class StrategyOptionsError extends Error {
  constructor(readonly problem: OptionsProblem) {
    super(`${problem.property}: ${problem.message}`);
  }
}

/** `{strategy}|{connection}|{id}`: the service's user ids of enterprise strategies (federation wire notes §3.1). */
export const enterpriseUserId = (strategy: string) => (connection: Pick<ConnectionRow, 'name'>, id: string) => `${strategy}|${connection.name}|${id}`;

/** `{strategy}|{id}`: user ids of social strategies and of the service's own connections. */
export const plainUserId = (strategy: string) => (_connection: Pick<ConnectionRow, 'name'>, id: string) => `${strategy}|${id}`;
