/** What the runtime needs of the actions' storage (src/domain/actions/deployed.ts answers it). */

/** An action version bound to a trigger, as the actions' storage answers it (src/domain/actions/deployed.ts). */
export interface BoundActionLike {
  actionId: string;
  versionId: string;
  name: string;
  code: string;
  runtime: string;
  secrets: Record<string, string>;
  dependencies: { name: string; version: string }[];
  modulesDir: string | null;
  /** The Actions modules the version uses, reached by `require('actions:<name>')`. */
  modules: BoundModule[];
}

/** A published module version an action uses, as the sandbox loads it. */
export interface BoundModule {
  name: string;
  versionId: string;
  code: string;
  /** The folder of the module version's installed dependencies, or null without. */
  modulesDir: string | null;
  /** Opened from the sealed values; the module's code reads them as `actions.secrets`. */
  secrets: Record<string, string>;
}

/** Where the bound actions come from. */
export interface ActionSource {
  boundActions(tenantId: string, triggerId: string): Promise<BoundActionLike[]>;
}
