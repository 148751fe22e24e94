import type { Logger } from 'pino';
import type { Config } from '../../platform/config.js';
import type { ConnectionStore } from '../connections/store.js';
import type { UnitOfWork } from '../stores.js';
import type { TenantService } from '../tenants/service.js';
import type { UserMailContext } from '../tickets/user-mail.js';
import type { UserStore } from '../users/store.js';
import type { JobStore } from './store.js';
import type { ActionStore } from '../actions/store.js';
import type { RekeyContext, RekeyStores } from '../encryption/rekey.js';
import type { DirectorySyncContext } from '../directory-provisioning/sync.js';

/** What running a job touches: the jobs, the users they import and export, the verification mail of imported users, actions' builds, rekeys and directory synchronizations. */
export interface JobContext extends UserMailContext, Pick<DirectorySyncContext, 'lookups'> {
  readonly config: Config;
  readonly logger: Logger;
  readonly tenants: TenantService;
  readonly unitOfWork: UnitOfWork;
  readonly box: RekeyContext['box'];
  readonly encryptionKeys: RekeyContext['encryptionKeys'];
  readonly stores: UserMailContext['stores'] & RekeyStores & DirectorySyncContext['stores'] & { readonly jobs: JobStore; readonly users: UserStore; readonly connections: ConnectionStore; readonly actions: ActionStore };
}
