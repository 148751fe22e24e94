/**
 * The triggers Gatehouse knows (GET /api/v2/actions/triggers), each at the
 * version the service currently runs (actions-wire-notes §1.6), and the
 * runtimes an action may name: every value the service's wire shows is
 * accepted and echoed unchanged; the runtime runs them all on the server's
 * Node (docs/actions.md).
 */
export interface TriggerDescription {
  id: string;
  version: string;
  /** The handler an action exports for it. */
  entryPoints: readonly string[];
}

export const TRIGGERS: readonly TriggerDescription[] = [
  { id: 'post-login', version: 'v3', entryPoints: ['onExecutePostLogin', 'onContinuePostLogin'] },
  { id: 'credentials-exchange', version: 'v2', entryPoints: ['onExecuteCredentialsExchange'] },
  { id: 'pre-user-registration', version: 'v2', entryPoints: ['onExecutePreUserRegistration'] },
  { id: 'post-user-registration', version: 'v2', entryPoints: ['onExecutePostUserRegistration'] },
  { id: 'post-change-password', version: 'v2', entryPoints: ['onExecutePostChangePassword'] },
  { id: 'send-phone-message', version: 'v2', entryPoints: ['onExecuteSendPhoneMessage'] },
  { id: 'custom-token-exchange', version: 'v1', entryPoints: ['onExecuteCustomTokenExchange'] },
];

export const RUNTIMES = ['node12', 'node16', 'node18', 'node18-actions', 'node20', 'node22', 'node24'] as const;
export const DEFAULT_RUNTIME = 'node22';

export function triggerById(id: string): TriggerDescription | undefined {
  return TRIGGERS.find((t) => t.id === id);
}
