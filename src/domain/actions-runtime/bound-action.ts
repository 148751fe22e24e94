/** What the runtime needs of the actions' storage (src/domain/actions/deployed.ts answers it). */
import type { BoundModule } from '../actions/deployed.js';

export type { BoundModule };

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


/** Where the bound actions come from. */
export interface ActionSource {
  boundActions(tenantId: string, triggerId: string): Promise<BoundActionLike[]>;
}
