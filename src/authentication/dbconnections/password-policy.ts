/**
 * Password policies of database connections: the service's levels (connection
 * option `passwordPolicy`), as its documentation describes them
 * ("Password Strength in Auth0 Database Connections") and as its password
 * library (auth0/password-sheriff) reports them in a PasswordStrengthError:
 *
 * | level     | rules                                                                  |
 * |-----------|------------------------------------------------------------------------|
 * | none      | at least 1 character                                                   |
 * | low       | at least 6 characters                                                  |
 * | fair      | at least 8 characters; lower case, upper case and numbers              |
 * | good      | at least 8 characters; 3 of 4 of lower, upper, numbers, special        |
 * | excellent | at least 10 characters; 3 of 4 as `good`; no more than 2 identical in a row |
 *
 * `password_complexity_options.min_length` raises (or lowers) the length rule.
 *
 * Default when `passwordPolicy` is unset or null: `good`. The service creates
 * new database connections with `good`, and a connection created through
 * Gatehouse's Management API without the option should not accept weaker
 * passwords than one created on the service would.
 *
 * The rule objects and the `policy` text are the wire shape of the
 * PasswordStrengthError body (authentication-api-wire-notes §1.4, go-auth0's
 * recorded example): messages keep their `%d` placeholders, with `format`.
 */
export type PasswordPolicyLevel = 'none' | 'low' | 'fair' | 'good' | 'excellent';

export const DEFAULT_PASSWORD_POLICY: PasswordPolicyLevel = 'good';

export interface RuleItem {
  message: string;
  code: string;
  verified: boolean;
}

export interface RuleResult {
  message: string;
  format?: (number | string)[];
  code: string;
  items?: RuleItem[];
  verified: boolean;
}

export interface PolicyResult {
  verified: boolean;
  rules: RuleResult[];
  /** The rules as the service's bulleted `policy` text. */
  policy: string;
}

const CHARSETS = {
  lowerCase: { message: 'lower case letters (a-z)', test: (p: string) => /[a-z]/.test(p) },
  upperCase: { message: 'upper case letters (A-Z)', test: (p: string) => /[A-Z]/.test(p) },
  numbers: { message: 'numbers (i.e. 0-9)', test: (p: string) => /[0-9]/.test(p) },
  // password-sheriff's special characters: anything outside letters, digits and whitespace.
  specialCharacters: { message: 'special characters (e.g. !@#$%^&*)', test: (p: string) => /[^a-zA-Z0-9\s]/.test(p) },
} as const;

type Charset = keyof typeof CHARSETS;

function items(password: string, sets: readonly Charset[]): RuleItem[] {
  return sets.map((code) => ({ message: CHARSETS[code].message, code, verified: CHARSETS[code].test(password) }));
}

function lengthAtLeast(password: string, min: number): RuleResult {
  // Length in code points, so an emoji counts once.
  return { message: 'At least %d characters in length', format: [min], code: 'lengthAtLeast', verified: [...password].length >= min };
}

function shouldContain(password: string, sets: readonly Charset[]): RuleResult {
  const list = items(password, sets);
  return { message: 'Should contain:', code: 'shouldContain', items: list, verified: list.every((i) => i.verified) };
}

function containsAtLeast(password: string, atLeast: number, sets: readonly Charset[]): RuleResult {
  const list = items(password, sets);
  return {
    message: 'Contain at least %d of the following %d types of characters:',
    code: 'containsAtLeast',
    format: [atLeast, sets.length],
    items: list,
    verified: list.filter((i) => i.verified).length >= atLeast,
  };
}

function identicalChars(password: string, max: number): RuleResult {
  let run = 0;
  let previous: string | undefined;
  let verified = true;
  for (const ch of password) {
    run = ch === previous ? run + 1 : 1;
    previous = ch;
    if (run > max) verified = false;
  }
  return {
    message: 'No more than %d identical characters in a row (e.g., "%s" not allowed)',
    code: 'identicalChars',
    format: [max, 'a'.repeat(max + 1)],
    verified,
  };
}

function formatMessage(rule: { message: string; format?: (number | string)[] }): string {
  const args = [...(rule.format ?? [])];
  return rule.message.replace(/%[ds]/g, () => String(args.shift() ?? ''));
}

function policyText(rules: RuleResult[]): string {
  const lines: string[] = [];
  for (const rule of rules) {
    lines.push(`* ${formatMessage(rule)}`);
    for (const item of rule.items ?? []) lines.push(` * ${item.message}`);
  }
  return lines.join('\n');
}

export interface ConnectionPasswordOptions {
  passwordPolicy?: unknown;
  password_complexity_options?: unknown;
}

export function policyLevelOf(options: ConnectionPasswordOptions): PasswordPolicyLevel {
  const level = options.passwordPolicy;
  return level === 'none' || level === 'low' || level === 'fair' || level === 'good' || level === 'excellent' ? level : DEFAULT_PASSWORD_POLICY;
}

const BASE_LENGTH: Record<PasswordPolicyLevel, number> = { none: 1, low: 6, fair: 8, good: 8, excellent: 10 };

function minLengthOf(options: ConnectionPasswordOptions, level: PasswordPolicyLevel): number {
  const complexity = options.password_complexity_options;
  if (complexity !== null && typeof complexity === 'object') {
    const min = (complexity as { min_length?: unknown }).min_length;
    if (typeof min === 'number' && Number.isInteger(min) && min >= 1) return min;
  }
  return BASE_LENGTH[level];
}

const ALL_FOUR: readonly Charset[] = ['lowerCase', 'upperCase', 'numbers', 'specialCharacters'];

/** Checks `password` against the connection's policy. */
export function checkPassword(options: ConnectionPasswordOptions, password: string): PolicyResult {
  const level = policyLevelOf(options);
  const rules: RuleResult[] = [lengthAtLeast(password, minLengthOf(options, level))];
  if (level === 'fair') rules.push(shouldContain(password, ['lowerCase', 'upperCase', 'numbers']));
  if (level === 'good' || level === 'excellent') rules.push(containsAtLeast(password, 3, ALL_FOUR));
  if (level === 'excellent') rules.push(identicalChars(password, 2));
  return { verified: rules.every((r) => r.verified), rules, policy: policyText(rules) };
}

/** The rules as plain sentences, for the reset page. */
export function ruleSentences(result: PolicyResult): { text: string; verified: boolean; items: RuleItem[] }[] {
  return result.rules.map((rule) => ({ text: formatMessage(rule), verified: rule.verified, items: rule.items ?? [] }));
}
