/**
 * The passwordless settings of an `email` connection, from its `options`
 * as the service names them:
 *
 * - `totp: {length, time_step}`: digits of the code (4 to 10, default 6) and
 *   seconds it lives (30 to 3600, default 180), for codes and links alike;
 * - `email: {from, subject, body, syntax: "liquid"}`: the message, Liquid
 *   templates with the service's variables (`code`, `link`, `send`,
 *   `email`, `application.name`, `connection.name`); defaults below;
 * - `disable_signup`: only existing users may log in;
 * - `brute_force_protection`: accepted for compatibility; codes always lock
 *   after MAX_CODE_TRIES wrong tries whatever it says (safe by default).
 *
 * `passwordlessOptionsProblem` is the Management API's check when such a
 * connection is created or updated.
 */
import { renderTemplateProblem } from '../templates.js';

export const EMAIL_STRATEGY = 'email';

/** Wrong tries that lock a code. */
export const MAX_CODE_TRIES = 5;

export const DEFAULT_SUBJECT = 'Your verification code for {{ application.name }}';
export const DEFAULT_BODY = `<p>{% if send == "link" %}<a href="{{ link }}">Log in to {{ application.name }}</a>{% else %}Your verification code for {{ application.name }} is <strong>{{ code }}</strong>{% endif %}</p>
<p>It expires in a few minutes. If you did not ask for it, ignore this message.</p>`;

export interface PasswordlessSettings {
  codeLength: number;
  lifetimeSeconds: number;
  from?: string;
  subject: string;
  body: string;
  disableSignup: boolean;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const integerIn = (value: unknown, min: number, max: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

export function passwordlessSettings(options: Record<string, unknown>): PasswordlessSettings {
  const totp = record(options.totp);
  const email = record(options.email);
  return {
    codeLength: integerIn(totp.length, 4, 10) ? totp.length : 6,
    lifetimeSeconds: integerIn(totp.time_step, 30, 3600) ? totp.time_step : 180,
    ...(typeof email.from === 'string' && email.from !== '' && { from: email.from }),
    subject: typeof email.subject === 'string' && email.subject !== '' ? email.subject : DEFAULT_SUBJECT,
    body: typeof email.body === 'string' && email.body !== '' ? email.body : DEFAULT_BODY,
    disableSignup: options.disable_signup === true,
  };
}

const NO_LINE_BREAKS = /^[^\r\n]*$/;

/** Why `options` cannot be an email connection's, or undefined when they can. */
export function passwordlessOptionsProblem(options: Record<string, unknown>): string | undefined {
  const totp = options.totp === undefined ? {} : options.totp;
  if (record(totp) !== totp) return 'options.totp must be an object';
  const { length, time_step } = totp as Record<string, unknown>;
  if (length !== undefined && !integerIn(length, 4, 10)) return 'options.totp.length must be an integer from 4 to 10';
  if (time_step !== undefined && !integerIn(time_step, 30, 3600)) return 'options.totp.time_step must be an integer from 30 to 3600 (seconds)';
  const email = options.email === undefined ? {} : options.email;
  if (record(email) !== email) return 'options.email must be an object';
  const { from, subject, body, syntax } = email as Record<string, unknown>;
  if (syntax !== undefined && syntax !== 'liquid') return 'options.email.syntax must be "liquid"';
  for (const [name, value, max] of [['from', from, 320], ['subject', subject, 500], ['body', body, 65536]] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > max) return `options.email.${name} must be a string of at most ${max} characters`;
    if (name !== 'body' && !NO_LINE_BREAKS.test(value)) return `options.email.${name} must be one line`;
    const problem = renderTemplateProblem(value);
    if (problem) return `options.email.${name} is not a valid Liquid template: ${problem}`;
  }
  for (const flag of ['disable_signup', 'brute_force_protection']) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') return `options.${flag} must be a boolean`;
  }
  return undefined;
}
