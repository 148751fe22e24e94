/**
 * A trigger of Actions as a module (STYLE.md 19: event, api, commands
 * applied): what its event holds, which api methods it offers, how each
 * command an action answers is validated and applied to the trigger's
 * outcome, and whether the flow stops. The runtime (../runtime.ts) never
 * compares a trigger's name; the registry (./index.ts) lists them.
 */
import type { ApiShape, SandboxCommand } from '../../../platform/sandbox/pool.js';
import type { BoundActionLike } from '../bound-action.js';

export type TriggerId =
  | 'post-login'
  | 'credentials-exchange'
  | 'pre-user-registration'
  | 'post-user-registration'
  | 'post-change-password'
  | 'send-phone-message'
  | 'custom-token-exchange';

export interface TriggerModule<I, O> {
  readonly id: TriggerId;
  /** The trigger's current version (actions-wire-notes §1.6). */
  readonly version: string;
  /** The exported function called (`onExecutePostLogin`). */
  readonly handler: string;
  /** Whether the flow waits for it; the others run after the fact and cannot change it. */
  readonly blocking: boolean;
  /** The api methods that record a command (`access.deny`); `cache.*` is always there. */
  readonly methods: readonly string[];
  /** Methods that answer a value (`redirect.canRedirect`). */
  values?(input: I): Record<string, unknown>;
  /** What `api.redirect.encodeToken`/`validateToken` work with (post-login): the issuer, the subject, the address; at /continue its state and parameters. */
  tokens?(input: I): RedirectTokens;
  /** The event, less `secrets` (each action gets its own). */
  event(input: I): Record<string, unknown>;
  /** The outcome before any action ran. */
  start(input: I): O;
  /** Validates one command and applies it; a refused claim is dropped as the service drops it, a bad argument throws ActionCommandError. */
  apply(outcome: O, command: SandboxCommand, input: I, action: BoundActionLike): void;
  /** Whether the flow stops after the action that brought the outcome here (a deny, a redirect). */
  stops?(outcome: O): boolean;
}

/** See TriggerModule.tokens. */
export type RedirectTokens = NonNullable<ApiShape['tokens']>;

/** A string argument of at most `max` characters, else the command is refused. */
export function stringArg(value: unknown, what: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) throw new ActionCommandError(`${what} must be a non-empty string of at most ${max} characters.`);
  return value;
}

/** A command the server refuses: the trigger fails with its message. */
export class ActionCommandError extends Error {}

/** Metadata changes (`setAppMetadata(key, value)`; `null` deletes): merged across actions, bounded. */
export function setMetadata(target: Record<string, unknown>, key: unknown, value: unknown): void {
  const name = stringArg(key, 'A metadata key', 256);
  target[name] = value === undefined ? null : value;
  if (Buffer.byteLength(JSON.stringify(target), 'utf8') > 32 * 1024) throw new ActionCommandError('The metadata set in this transaction exceeds 32 kB.');
}
