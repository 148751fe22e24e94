import type { AppContext } from '../context.js';

/** What running a job needs of the context. */
export type JobContext = Pick<AppContext, 'stores' | 'unitOfWork' | 'now' | 'logger' | 'config' | 'tenants' | 'mailer' | 'box'>;
