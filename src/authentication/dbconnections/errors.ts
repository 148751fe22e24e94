/**
 * The error family of /dbconnections/* (authentication-api-wire-notes §1.4,
 * family 2): `{name, code, description, statusCode}`, and for a password the
 * policy refuses, `{name: "PasswordStrengthError", message, code:
 * "invalid_password", description: {rules, verified}, policy, statusCode}`.
 * Rendered by the one error handler through `HttpError.body()`.
 *
 * Recorded codes: `user_exists` (duplicate, wording from the notes),
 * `invalid_password`, `invalid_signup`. The other codes below are Gatehouse's
 * choice where the service's answer is not recorded (UNCONFIRMED).
 */
import { HttpError } from '../../platform/http/errors.js';
import type { PolicyResult } from './password-policy.js';

export type DbConnectionsErrorCode =
  | 'invalid_signup'
  | 'user_exists'
  | 'invalid_password'
  | 'invalid_parameter'
  | 'invalid_client'
  | 'invalid_connection'
  | 'operation_not_allowed'
  | 'extensibility_error';

export class DbConnectionsError extends HttpError {
  constructor(
    readonly code: DbConnectionsErrorCode,
    readonly description: string,
    statusCode = 400,
  ) {
    super(statusCode, `${code}: ${description}`);
    this.name = 'DbConnectionsError';
  }

  body(): Record<string, unknown> {
    return { name: 'BadRequestError', code: this.code, description: this.description, statusCode: this.statusCode };
  }
}

export class PasswordStrengthError extends HttpError {
  constructor(readonly result: PolicyResult) {
    super(400, 'Password is too weak');
    this.name = 'PasswordStrengthError';
  }

  body(): Record<string, unknown> {
    return {
      name: 'PasswordStrengthError',
      message: 'Password is too weak',
      code: 'invalid_password',
      description: { rules: this.result.rules, verified: false },
      policy: this.result.policy,
      statusCode: 400,
    };
  }
}

export const dbConnectionsErrors = {
  missing: (name: string) => new DbConnectionsError('invalid_parameter', `Missing required parameter: ${name}`),
  invalid: (description: string) => new DbConnectionsError('invalid_parameter', description),
  unknownClient: () => new DbConnectionsError('invalid_client', 'Unknown client.'),
  unknownConnection: () => new DbConnectionsError('invalid_connection', 'Connection does not exist.'),
  connectionNotEnabled: () => new DbConnectionsError('invalid_connection', 'Connection is not enabled for this client.'),
  notDatabaseConnection: () => new DbConnectionsError('invalid_connection', 'Connection is not a database connection.'),
  signupDisabled: () => new DbConnectionsError('operation_not_allowed', 'Public signup is disabled'),
  userExists: () => new DbConnectionsError('user_exists', 'The user already exists.'),
  /** A pre-user-registration action refused the signup: its message for the user. */
  refusedByAction: (userMessage: string) => new DbConnectionsError('extensibility_error', userMessage),
};
