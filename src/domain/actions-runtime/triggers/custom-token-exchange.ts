/**
 * custom-token-exchange (v1), actions-wire-notes §4: the action validates the
 * subject token of an RFC 8693 request whose `subject_token_type` names a
 * token exchange profile, and sets the user, exactly once:
 * `authentication.setUserById(id)` (an existing user) or
 * `authentication.setUserByConnection(connection, attributes, options)`.
 * `access.deny(code, reason)` and `access.rejectInvalidSubjectToken(reason)`
 * refuse the request.
 */
import { ActionCommandError, setMetadata, stringArg, type TriggerModule } from './trigger.js';
import type { EventRequest } from './event-parts.js';

export interface CustomTokenExchangeInput {
  tenant: { id: string };
  client: { client_id: string; name: string; metadata: Record<string, unknown> };
  resourceServer?: { identifier: string };
  request: EventRequest;
  transaction: { subject_token: string; subject_token_type: string; requested_scopes: string[]; actor_token?: string; actor_token_type?: string };
}

export type CustomTokenUser =
  | { kind: 'id'; userId: string }
  | { kind: 'connection'; connection: string; attributes: Record<string, unknown>; creationBehavior: 'create_if_not_exists' | 'none'; updateBehavior: 'none' | 'replace' };

export interface CustomTokenExchangeOutcome {
  user?: CustomTokenUser;
  deny?: { code: string; reason: string };
  appMetadata: Record<string, unknown>;
  userMetadata: Record<string, unknown>;
}

export const customTokenExchange: TriggerModule<CustomTokenExchangeInput, CustomTokenExchangeOutcome> = {
  id: 'custom-token-exchange',
  version: 'v1',
  handler: 'onExecuteCustomTokenExchange',
  blocking: true,
  methods: ['authentication.setUserById', 'authentication.setUserByConnection', 'access.deny', 'access.rejectInvalidSubjectToken', 'user.setAppMetadata', 'user.setUserMetadata'],

  event: (input) => ({
    transaction: input.transaction,
    client: input.client,
    ...(input.resourceServer && { resource_server: input.resourceServer }),
    request: input.request,
    tenant: { id: input.tenant.id },
  }),

  start: () => ({ appMetadata: {}, userMetadata: {} }),

  apply(outcome, { method, args }) {
    switch (method) {
      case 'authentication.setUserById':
      case 'authentication.setUserByConnection': {
        if (outcome.user) throw new ActionCommandError('The user can be set only once per transaction.');
        if (method === 'authentication.setUserById') {
          outcome.user = { kind: 'id', userId: stringArg(args[0], 'The user id', 256) };
          return;
        }
        const attributes = args[1];
        if (typeof attributes !== 'object' || attributes === null || typeof (attributes as { user_id?: unknown }).user_id !== 'string') {
          throw new ActionCommandError('setUserByConnection needs the user attributes with user_id.');
        }
        const options = (args[2] ?? {}) as { creationBehavior?: unknown; updateBehavior?: unknown };
        outcome.user = {
          kind: 'connection',
          connection: stringArg(args[0], 'The connection name', 128),
          attributes: attributes as Record<string, unknown>,
          creationBehavior: options.creationBehavior === 'create_if_not_exists' ? 'create_if_not_exists' : 'none',
          updateBehavior: options.updateBehavior === 'replace' ? 'replace' : 'none',
        };
        return;
      }
      case 'access.deny':
        outcome.deny = { code: stringArg(args[0], 'The deny code', 64), reason: typeof args[1] === 'string' ? args[1].slice(0, 1024) : 'Access denied' };
        return;
      case 'access.rejectInvalidSubjectToken':
        outcome.deny = { code: 'invalid_request', reason: typeof args[0] === 'string' ? args[0].slice(0, 1024) : 'Invalid subject token' };
        return;
      case 'user.setAppMetadata':
        return setMetadata(outcome.appMetadata, args[0], args[1]);
      case 'user.setUserMetadata':
        return setMetadata(outcome.userMetadata, args[0], args[1]);
    }
  },

  stops: (outcome) => outcome.deny !== undefined,
};
