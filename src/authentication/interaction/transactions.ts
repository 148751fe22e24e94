/**
 * The transactions of the hosted pages: an /authorize request kept
 * server-side while the user logs in, signs up or consents.
 *
 * - It is stored under the SHA-256 of a random transaction id, which is what
 *   the pages carry as `state`; it lives the tenant's `authorize_transaction`
 *   lifetime, is bound to the browser that started it (the hash of its
 *   `__Host-gh_browser` value), and is consumed by the response it leads to,
 *   so a page cannot be replayed into a second code nor completed from
 *   another browser.
 * - The pages' CSRF token is an HMAC, under a key derived from the master
 *   key, of the transaction id's hash and this browser's binding: no storage,
 *   bound to the transaction and the browser (defeats login CSRF).
 */
import type { IssuanceClient, IssuanceLookups } from '../../domain/issuance/lookups.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import { isoAt } from '../../platform/clock.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';
import type { JsonObject } from '../../domain/json.js';

/** A waiting authorization request and its client. */
export interface Transaction {
  id: string;
  request: AuthorizeRequest;
  client: IssuanceClient;
  /** The interaction steps completed in this request. */
  completed: string[];
  /** The session the request is answered for, once a step completed with one (`id_hash`). */
  sessionHash?: string;
}

const MAX_ID_LENGTH = 100;

/** What interaction transactions touch. */
export interface TransactionContext {
  formTokens(purpose: string): FormTokens;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly stores: { readonly authorizeTransactions: AuthorizationRequestStore };
}

export class Transactions {
  #csrf: FormTokens | undefined;

  constructor(private readonly ctx: TransactionContext) {}

  /** Keeps the request for the browser that made it; returns the transaction id the pages carry as `state`. */
  async start(tenant: Tenant, request: AuthorizeRequest, browser: string): Promise<string> {
    const id = newSecret();
    const now = this.ctx.now();
    await this.ctx.stores.authorizeTransactions.insert({
      tenant_id: tenant.id,
      id_hash: secretHash(id),
      client_id: request.client_id,
      params: { ...request },
      created_at: isoAt(now),
      expires_at: isoAt(now + lifetimeOf(tenant, 'authorize_transaction') * 1000),
      browser_hash: secretHash(browser),
    });
    return id;
  }

  /** The waiting request and its client, when the transaction is usable from this browser. */
  async find(tenant: Tenant, id: string | undefined, browser: string | undefined): Promise<Transaction | undefined> {
    if (id === undefined || id.length === 0 || id.length > MAX_ID_LENGTH || browser === undefined) return undefined;
    const row = await this.ctx.stores.authorizeTransactions.findUsable(tenant.id, secretHash(id), isoAt(this.ctx.now()));
    if (!row || row.browser_hash !== secretHash(browser)) return undefined;
    const client = await this.ctx.lookups.client(tenant.id, row.client_id);
    if (!client) return undefined;
    // The params are the AuthorizeRequest `start` stored.
    return { id, request: row.params as unknown as AuthorizeRequest, client, completed: row.completed_steps, ...(row.session_hash !== null && { sessionHash: row.session_hash }) };
  }

  /** Records the steps completed and the session answered for; false when the transaction is no longer usable. */
  record(tenant: Tenant, id: string, completed: readonly string[], sessionHash: string | undefined): Promise<boolean> {
    return this.ctx.stores.authorizeTransactions.recordSteps(tenant.id, secretHash(id), isoAt(this.ctx.now()), completed, sessionHash ?? null);
  }

  /** Replaces the kept request (parameters a step's page completed); false when the transaction is no longer usable. */
  recordRequest(tenant: Tenant, id: string, request: AuthorizeRequest): Promise<boolean> {
    return this.ctx.stores.authorizeTransactions.recordRequest(tenant.id, secretHash(id), isoAt(this.ctx.now()), { ...request });
  }

  /** Suspends the login for a post-login action's redirect until `/continue` brings the nonce back (../actions/continue.ts); false when no longer usable. */
  suspend(tenant: Tenant, id: string, continueHash: string, suspension: JsonObject): Promise<boolean> {
    return this.ctx.stores.authorizeTransactions.suspend(tenant.id, secretHash(id), isoAt(this.ctx.now()), continueHash, suspension);
  }

  /** What the suspension kept, once: of two `/continue` requests with the same nonce only one gets it. */
  async resume(tenant: Tenant, id: string, continueHash: string): Promise<JsonObject | undefined> {
    const row = await this.ctx.stores.authorizeTransactions.resume(tenant.id, secretHash(id), isoAt(this.ctx.now()), continueHash);
    return row?.action_suspension ?? undefined;
  }

  /** Spends the transaction: of two concurrent submissions only one gets true. */
  consume(tenant: Tenant, id: string): Promise<boolean> {
    return this.ctx.stores.authorizeTransactions.consume(tenant.id, secretHash(id), isoAt(this.ctx.now()));
  }

  private get csrf(): FormTokens {
    this.#csrf ??= this.ctx.formTokens('gatehouse login csrf');
    return this.#csrf;
  }

  csrfToken(tenant: Tenant, transactionId: string, browser: string): string {
    return this.csrf.token(tenant.id, secretHash(transactionId), browser);
  }

  csrfMatches(tenant: Tenant, transactionId: string, browser: string | undefined, given: string | undefined): boolean {
    return browser !== undefined && this.csrf.matches(given, tenant.id, secretHash(transactionId), browser);
  }
}
