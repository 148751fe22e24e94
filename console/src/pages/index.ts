/** The console's sections, in the order of the navigation; `path` is the first segment of the hash route. */
import type { FunctionComponent } from 'preact';
import { Apis } from './apis.js';
import { Applications } from './applications.js';
import { BrandingPage } from './branding.js';
import { Connections } from './connections.js';
import { Groups } from './groups.js';
import { Guardian } from './guardian.js';
import { Logs } from './logs.js';
import { Organizations } from './organizations.js';
import { Roles } from './roles.js';
import { Tenant } from './tenant.js';
import { Users } from './users.js';

export interface PageEntry {
  path: string;
  title: string;
  component: FunctionComponent<{ route: string[] }>;
}

export const PAGES: readonly PageEntry[] = [
  { path: 'applications', title: 'Applications', component: Applications },
  { path: 'apis', title: 'APIs', component: Apis },
  { path: 'users', title: 'Users', component: Users },
  { path: 'connections', title: 'Connections', component: Connections },
  { path: 'roles', title: 'Roles', component: Roles },
  { path: 'organizations', title: 'Organizations', component: Organizations },
  { path: 'groups', title: 'Groups', component: Groups },
  { path: 'mfa', title: 'Multi-factor auth', component: Guardian },
  { path: 'tenant', title: 'Tenant settings', component: Tenant },
  { path: 'branding', title: 'Branding', component: BrandingPage },
  { path: 'logs', title: 'Logs', component: Logs },
];
