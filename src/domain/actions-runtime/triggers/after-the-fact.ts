/**
 * The asynchronous triggers (actions-wire-notes §2.6): post-user-registration
 * and post-change-password run after the fact; their api offers the cache
 * only and nothing they do changes the flow.
 */
import type { TriggerModule } from './trigger.js';
import type { EventRequest } from './event-parts.js';

export interface AfterTheFactInput {
  tenant: { id: string };
  user: Record<string, unknown>;
  connection: { id: string; name: string; strategy: string };
  request?: EventRequest;
}

function afterTheFact(id: 'post-user-registration' | 'post-change-password', handler: string): TriggerModule<AfterTheFactInput, Record<string, never>> {
  return {
    id,
    version: 'v2',
    handler,
    blocking: false,
    methods: [],
    event: (input) => ({ user: input.user, connection: input.connection, ...(input.request && { request: input.request }), tenant: { id: input.tenant.id } }),
    start: () => ({}),
    apply: () => undefined,
  };
}

export const postUserRegistration = afterTheFact('post-user-registration', 'onExecutePostUserRegistration');
export const postChangePassword = afterTheFact('post-change-password', 'onExecutePostChangePassword');
