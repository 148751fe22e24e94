// The parts of node-oidc-provider (a test dependency without type declarations) the tests use.
declare module 'oidc-provider' {
  import type { RequestListener } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface KoaContext {
    oidc: {
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }
  interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  export interface Configuration {
    clients?: Record<string, unknown>[];
    claims?: Record<string, string[]>;
    findAccount?(ctx: KoaContext, sub: string): Account | undefined | Promise<Account | undefined>;
    loadExistingGrant?(ctx: KoaContext): Promise<Grant | undefined>;
    cookies?: { keys?: string[] };
    [setting: string]: unknown;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): RequestListener;
    Client: { Schema: { prototype: { invalidate(message: string, code?: string): void } } };
  }
}
