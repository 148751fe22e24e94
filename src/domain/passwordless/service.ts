/**
 * Passwordless login by email (connections of strategy `email`: a code, or
 * a link carrying it, is mailed) or text message (strategy `sms`: a code
 * texted through the tenant's Twilio provider); the code logs in once, before it expires,
 * for the client it was sent for, and locks after MAX_CODE_TRIES wrong tries.
 * A new code for the same address replaces the previous one. Codes are
 * stored as SHA-256 only.
 *
 * Users of such a connection are `email|<24 hex>`, with a verified email and
 * no password, or `sms|<24 hex>` with a verified phone number; the first successful login creates the user unless the
 * connection has `disable_signup`. With `disable_signup`, a start for an
 * unknown address answers as any other but sends nothing, so the answer does
 * not tell which addresses have accounts, and no code exists to log in with.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { ConnectionRow } from '../connections/model.js';
import { secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import { newUserIdPart, type UserRow } from '../users/model.js';
import { defaultPicture } from '../users/new-user.js';
import { userLoggingIn } from '../users/linked.js';
import { EMAIL_STRATEGY, MAX_CODE_TRIES, passwordlessSettings, SMS_STRATEGY, type PasswordlessSettings } from './options.js';
import { renderHtml, renderLine } from '../templates.js';
import type { Logger } from 'pino';
import type { PasswordlessStore } from './store.js';
import type { UserStore } from '../users/store.js';
import type { Mailer } from '../../platform/mail/index.js';

export interface EmailStart {
  tenant: Tenant;
  connection: ConnectionRow;
  client: { id: string; name: string };
  email: string;
  send: 'code' | 'link';
  /** The magic link for a code (send=link). */
  link?: (code: string) => string;
}

function newCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

/** What passwordless codes touch. */
export interface PasswordlessContext {
  readonly logger: Logger;
  readonly mailer: Mailer;
  readonly now: () => number;
  readonly stores: { readonly passwordless: PasswordlessStore; readonly users: UserStore };
}

/** The recipient's new code, replacing an earlier one (kept as its hash). */
async function newRecipientCode(ctx: PasswordlessContext, tenant: Tenant, connection: ConnectionRow, clientId: string, recipient: string, settings: PasswordlessSettings): Promise<string> {
  const code = newCode(settings.codeLength);
  const now = ctx.now();
  await ctx.stores.passwordless.replace({
    tenant_id: tenant.id,
    connection_id: connection.id,
    recipient,
    client_id: clientId,
    code_hash: secretHash(code),
    created_at: isoAt(now),
    expires_at: isoAt(now + settings.lifetimeSeconds * 1000),
  });
  return code;
}

/** The existing user of the connection for this address or number (the user it is linked to, for a linked identity). */
async function existingUser(ctx: PasswordlessContext, tenant: Tenant, connection: ConnectionRow, recipient: string): Promise<UserRow | undefined> {
  const users = ctx.stores.users;
  const row = connection.strategy === SMS_STRATEGY ? await users.findSmsUser(tenant.id, connection.id, recipient) : await users.findByEmail(tenant.id, connection.id, recipient.toLowerCase());
  return row && userLoggingIn(users, row);
}

export interface SmsStart {
  tenant: Tenant;
  connection: ConnectionRow;
  client: { id: string; name: string };
  /** E.164. */
  phoneNumber: string;
  /** Sends the text through the tenant's provider with the connection's sender. */
  send: (body: string, sender: { from?: string; messagingServiceSid?: string }, code: string) => Promise<void>;
}

/** Creates the number's code and texts it with the connection's template; sends nothing to an unknown number under disable_signup. */
export async function startSms(ctx: PasswordlessContext, start: SmsStart): Promise<void> {
  const { tenant, connection } = start;
  const settings = passwordlessSettings(connection.options);
  if (settings.disableSignup && !(await existingUser(ctx, tenant, connection, start.phoneNumber))) return;
  const code = await newRecipientCode(ctx, tenant, connection, start.client.id, start.phoneNumber, settings);
  const body = await renderLine(settings.smsTemplate, { code, password: code, application: { name: start.client.name }, connection: { name: connection.name } });
  await start.send(body, { ...(settings.smsFrom !== undefined && { from: settings.smsFrom }), ...(settings.messagingServiceSid !== undefined && { messagingServiceSid: settings.messagingServiceSid }) }, code);
}

/** Creates the recipient's code and mails it (or the link carrying it); sends nothing to an unknown address under disable_signup. */
export async function startEmail(ctx: PasswordlessContext, start: EmailStart): Promise<void> {
  const { tenant, connection } = start;
  const settings = passwordlessSettings(connection.options);
  const recipient = start.email.toLowerCase();
  if (settings.disableSignup && !(await existingUser(ctx, tenant, connection, recipient))) return;
  const code = await newRecipientCode(ctx, tenant, connection, start.client.id, recipient, settings);
  const link = start.send === 'link' && start.link ? start.link(code) : undefined;
  const variables = {
    code,
    ...(link !== undefined && { link }),
    send: start.send,
    email: start.email,
    application: { name: start.client.name },
    connection: { name: connection.name },
  };
  const minutes = Math.max(1, Math.round(settings.lifetimeSeconds / 60));
  const text = link !== undefined ? `Log in to ${start.client.name}: ${link}\n\nThe link expires in ${minutes} minutes.\n` : `Your verification code for ${start.client.name} is ${code}\n\nIt expires in ${minutes} minutes.\n`;
  const message = { to: start.email, subject: await renderLine(settings.subject, variables), text, html: await renderHtml(settings.body, variables) };
  // Handed over without waiting: a slow mail server must not hold the request. The message carries a live code: never logged.
  const transport = await ctx.mailer.transportForTenant(tenant);
  transport.send(message).catch((err: unknown) => ctx.logger.error({ err, tenant: tenant.name, purpose: 'passwordless' }, 'sending mail failed'));
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Whether `code` logs the address (or phone number) in for `clientId` now; a right code is spent, a wrong one counted. */
export async function verifyEmailCode(ctx: PasswordlessContext, tenant: Tenant, connection: ConnectionRow, clientId: string, email: string, code: string): Promise<boolean> {
  const recipient = email.toLowerCase();
  const row = await ctx.stores.passwordless.find(tenant.id, connection.id, recipient);
  if (!row) return false;
  if (row.client_id !== clientId || !sameHash(row.code_hash, secretHash(code))) {
    await ctx.stores.passwordless.recordFailure(tenant.id, connection.id, recipient, row.code_hash);
    return false;
  }
  return ctx.stores.passwordless.spend(tenant.id, connection.id, recipient, row.code_hash, isoAt(ctx.now()), MAX_CODE_TRIES);
}

/** The connection's user with this address (or phone number), created at the first login unless signups are disabled (then undefined). */
export async function passwordlessUser(ctx: PasswordlessContext, tenant: Tenant, connection: ConnectionRow, email: string): Promise<UserRow | undefined> {
  const lower = email.toLowerCase();
  const existing = await existingUser(ctx, tenant, connection, email);
  if (existing || passwordlessSettings(connection.options).disableSignup) return existing;
  const now = isoAt(ctx.now());
  const sms = connection.strategy === SMS_STRATEGY;
  const row: UserRow = {
    tenant_id: tenant.id,
    user_id: `${EMAIL_STRATEGY}|${newUserIdPart()}`,
    connection_id: connection.id,
    email,
    email_lower: lower,
    // Receiving the code proved the address.
    email_verified: 1,
    username: null,
    username_lower: null,
    phone_number: null,
    phone_verified: 0,
    password_hash: null,
    blocked: 0,
    name: email,
    given_name: null,
    family_name: null,
    nickname: email.slice(0, email.lastIndexOf('@')),
    picture: defaultPicture(lower),
    app_metadata: {},
    user_metadata: {},
    created_at: now,
    updated_at: now,
    last_login: null,
    last_password_reset: null,
    logins_count: 0,
    linked_to: null,
    ...(sms && {
      // `sms|…` users have a verified number and no email (receiving the code proved the number).
      user_id: `${SMS_STRATEGY}|${newUserIdPart()}`,
      email: null,
      email_lower: null,
      email_verified: 0,
      phone_number: email,
      phone_verified: 1,
      name: email,
      nickname: email,
      picture: defaultPicture(email),
    }),
  };
  try {
    await ctx.stores.users.insert(row);
    return row;
  } catch (error) {
    // Two first logins at once: the other one created the user.
    if (isUniqueViolation(error)) return existingUser(ctx, tenant, connection, email);
    throw error;
  }
}
