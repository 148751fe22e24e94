/**
 * Connection scripts: the tenant's JavaScript of a connection (a custom
 * database's `customScripts`, the `oauth2` strategy's
 * `scripts.fetchUserProfile`), run in the tenant's sandbox processes
 * (src/platform/sandbox/), never in the server's process, within the
 * sandbox's wall-clock limit (GATEHOUSE_ACTIONS_TIMEOUT: the process is
 * killed past it).
 *
 * A script is one function, as the service stores it
 * (`function login(email, password, callback) { … }`), called with its
 * arguments and a Node-style callback `(err, value)`. Around it, the
 * globals the service's script runtime gives: `configuration` (the
 * connection's settings, opened from their sealed form for the run only),
 * `WrongUsernameOrPasswordError`, `ValidationError`, `UnauthorizedError`,
 * and `require`/`fetch` as Actions have them. What the callback is given
 * comes back as JSON; an error comes back with its name, message and code.
 */
import type { SandboxError, SandboxResult, SandboxRun } from '../../platform/sandbox/pool.js';

/** The sandbox: runs code for a tenant until `deadline` (src/platform/sandbox/pool.ts). */
export interface ScriptSandbox {
  run(tenantId: string, run: SandboxRun, deadline: number): Promise<SandboxResult>;
}

/** The longest script accepted (the service's `fetchUserProfile` bound; custom database scripts take the same). */
export const MAX_SCRIPT_CHARS = 51_200;

/** What a script answered: the callback's value (null when it gave none), or its error. */
export type ScriptOutcome = { value: unknown; logs: string } | { error: SandboxError; logs: string };

/** The globals of the service's connection-script runtime, defined before the script. */
const PRELUDE = `
class WrongUsernameOrPasswordError extends Error {
  constructor(email, message) { super(message === undefined ? 'Wrong email or password.' : String(message)); this.name = 'WrongUsernameOrPasswordError'; this.email = email; }
}
class ValidationError extends Error {
  constructor(code, message) { super(message === undefined ? String(code) : String(message)); this.name = 'ValidationError'; this.code = String(code); }
}
class UnauthorizedError extends Error {
  constructor(message) { super(message === undefined ? 'Unauthorized' : String(message)); this.name = 'UnauthorizedError'; }
}
`;

/**
 * The module the sandbox loads for a script: `exports.run(configuration, …args, callback)`
 * evaluates the script as a function expression in a scope where `configuration` is
 * bound, and calls it. An async script's rejection reaches the callback too.
 */
export function scriptModule(script: string): string {
  // A trailing `;` after the function declaration would end the expression early.
  const body = script.trim().replace(/;+\s*$/, '');
  return `${PRELUDE}
exports.run = function run(configuration, ...args) {
  const callback = args[args.length - 1];
  const script = (
${body}
  );
  if (typeof script !== 'function') throw new TypeError('The script is not a function.');
  const answer = script.apply(null, args);
  if (answer && typeof answer.then === 'function') answer.then(undefined, (error) => callback(error));
};
`;
}

export class ConnectionScripts {
  constructor(
    private readonly sandbox: ScriptSandbox,
    private readonly timeoutMs: number,
  ) {}

  /** Runs `script` for `tenantId` with `args` (the callback is added); never throws for what the script does. */
  async run(tenantId: string, script: string, args: unknown[], configuration: Readonly<Record<string, string>>): Promise<ScriptOutcome> {
    const result = await this.sandbox.run(
      tenantId,
      { code: scriptModule(script), modulesDir: null, handler: 'run', args: [configuration, ...args], api: null },
      Date.now() + this.timeoutMs,
    );
    if (result.error) return { error: result.error, logs: result.logs };
    return { value: result.value ?? null, logs: result.logs };
  }
}
