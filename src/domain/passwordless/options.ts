/**
 * The passwordless settings of an `email` or `sms` connection, from its
 * `options` as the service names them:
 *
 * - `totp: {length, time_step}`: digits of the code (4 to 10, default 6) and
 *   seconds it lives (30 to 3600, default 180), for codes and links alike;
 * - `email: {from, subject, body, syntax: "liquid"}`: the message, Liquid
 *   templates with the service's variables (`code`, `link`, `send`,
 *   `email`, `application.name`, `connection.name`); defaults below;
 * - `sms` connections: `template` (the text, Liquid with `code` and
 *   `application.name`; the service's `@@password@@` macro of its
 *   `md_with_macros` syntax is read as `{{ code }}`), `from` (an E.164
 *   sender number) or `messaging_service_sid` (`MG…`) choosing the sender
 *   on the tenant's Twilio account (Guardian's SMS provider); `twilio_sid`
 *   and `twilio_token` are refused: the account and its token are the
 *   tenant's provider's, sealed there, never kept in connection options;
 * - `disable_signup`: only existing users may log in;
 * - `brute_force_protection`: accepted for compatibility; codes always lock
 *   after MAX_CODE_TRIES wrong tries whatever it says (safe by default).
 *
 * `passwordlessOptionsProblem` is the Management API's check when such a
 * connection is created or updated.
 */
import { renderTemplateProblem } from '../templates.js';

export const EMAIL_STRATEGY = 'email';
export const SMS_STRATEGY = 'sms';
export const PASSWORDLESS_STRATEGIES: ReadonlySet<string> = new Set([EMAIL_STRATEGY, SMS_STRATEGY]);

/** The service's default text (its `md_with_macros` default, in Liquid). */
export const DEFAULT_SMS_TEMPLATE = 'Your verification code is: {{ code }}';

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
  /** sms: the text's Liquid template. */
  smsTemplate: string;
  /** sms: the sender chosen on the tenant's Twilio account. */
  smsFrom?: string;
  messagingServiceSid?: string;
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
    smsTemplate: typeof options.template === 'string' && options.template !== '' ? options.template.replace(/@@password@@/g, '{{ code }}') : DEFAULT_SMS_TEMPLATE,
    ...(typeof options.from === 'string' && options.from !== '' && { smsFrom: options.from }),
    ...(typeof options.messaging_service_sid === 'string' && options.messaging_service_sid !== '' && { messagingServiceSid: options.messaging_service_sid }),
  };
}

const NO_LINE_BREAKS = /^[^\r\n]*$/;

/** A phone number in E.164 (the service's pattern, wire notes §1.4, with a leading digit 1-9 and at least 7 digits). */
export const E164 = /^\+[1-9][0-9]{6,14}$/;
const MESSAGING_SERVICE_SID = /^MG[0-9a-fA-F]{32}$/;

/** Why `options` cannot be an sms connection's (besides totp and the flags), or undefined when they can. */
function smsOptionsProblem(options: Record<string, unknown>): string | undefined {
  for (const secret of ['twilio_sid', 'twilio_token']) {
    if (options[secret] !== undefined) return `options.${secret} is not supported: texts go through the tenant's Twilio provider (PUT /api/v2/guardian/factors/sms/providers/twilio)`;
  }
  const { template, syntax, from, messaging_service_sid: service } = options;
  if (syntax !== undefined && syntax !== 'liquid' && syntax !== 'md_with_macros') return 'options.syntax must be "liquid" or "md_with_macros"';
  if (template !== undefined) {
    if (typeof template !== 'string' || template.length > 1000) return 'options.template must be a string of at most 1000 characters';
    const problem = renderTemplateProblem(template.replace(/@@password@@/g, '{{ code }}'));
    if (problem) return `options.template is not a valid Liquid template: ${problem}`;
  }
  if (from !== undefined && from !== null && (typeof from !== 'string' || !E164.test(from))) return 'options.from must be an E.164 phone number, such as +14155550100';
  if (service !== undefined && service !== null && (typeof service !== 'string' || !MESSAGING_SERVICE_SID.test(service))) return 'options.messaging_service_sid must be a Twilio messaging service SID (MG and 32 hexadecimal digits)';
  return undefined;
}

/** Why `options` cannot be a passwordless (`strategy`: email or sms) connection's, or undefined when they can. */
export function passwordlessOptionsProblem(options: Record<string, unknown>, strategy: string = EMAIL_STRATEGY): string | undefined {
  const totp = options.totp === undefined ? {} : options.totp;
  if (record(totp) !== totp) return 'options.totp must be an object';
  const { length, time_step } = totp as Record<string, unknown>;
  if (length !== undefined && !integerIn(length, 4, 10)) return 'options.totp.length must be an integer from 4 to 10';
  if (time_step !== undefined && !integerIn(time_step, 30, 3600)) return 'options.totp.time_step must be an integer from 30 to 3600 (seconds)';
  for (const flag of ['disable_signup', 'brute_force_protection']) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') return `options.${flag} must be a boolean`;
  }
  if (strategy === SMS_STRATEGY) return smsOptionsProblem(options);
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
  return undefined;
}
