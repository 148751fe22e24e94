/**
 * GitHub (`github`): plain OAuth 2.0 and its REST API (`/user`, with the
 * `email` flag `/user/emails`); users `github|{id}` (GitHub's numeric id).
 * `scope` is computed from the flags as the service's recordings show
 * (`email` → `user:email`, `read_user` → `read:user`…; `profile`, on by
 * default, adds none).
 */
import { socialStrategy } from './social.js';

export const githubStrategy = socialStrategy('github', 'GitHub', {
  credentials: { client_id: 255, client_secret: 255 },
  flags: {
    profile: [],
    email: ['user:email'],
    read_user: ['read:user'],
    follow: ['user:follow'],
    public_repo: ['public_repo'],
    repo: ['repo'],
    repo_deployment: ['repo_deployment'],
    repo_status: ['repo:status'],
    delete_repo: ['delete_repo'],
    notifications: ['notifications'],
    gist: ['gist'],
    read_repo_hook: ['read:repo_hook'],
    write_repo_hook: ['write:repo_hook'],
    admin_repo_hook: ['admin:repo_hook'],
    read_org: ['read:org'],
    admin_org: ['admin:org'],
    write_org: ['write:org'],
    read_public_key: ['read:public_key'],
    write_public_key: ['write:public_key'],
    admin_public_key: ['admin:public_key'],
  },
  defaultFlags: ['profile'],
  scopeShape: 'array',
}, { identityUserId: (part) => (/^[1-9]\d{0,14}$/.test(part) ? Number(part) : part) });
