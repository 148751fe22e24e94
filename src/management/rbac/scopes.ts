/**
 * Scopes of the operations that reveal which users hold which roles
 * (GET /roles/{id}/users, GET /users/{id}/roles). The document lists
 * `read:users`, `read:roles` and `read:role_members` for both, and describes
 * the 403 as "expected all of: read:users, read:roles…". Gatehouse accepts
 * `read:role_members` alone (the fine-grained scope made for this), or
 * `read:users` together with `read:roles` (the original requirement), and
 * never one of those two alone: a token that may only read roles must not
 * read role members' emails and names. The route's `config.scopes` keeps the
 * document's three, so the plugin refuses a token with none of them first;
 * this hook, run after it, refuses one that has only half of the pair, naming
 * the scopes either of which would complete it.
 */
import type { FastifyRequest } from 'fastify';
import { managementErrors } from '../../platform/http/errors.js';
import { requireScope } from '../auth.js';

export async function requireRoleMembersScope(request: FastifyRequest): Promise<void> {
  const principal = request.principal;
  // The plugin authenticated the request before this hook; fail closed all the same.
  if (!principal) throw managementErrors.missingAuthentication();
  if (principal.scopes.has('read:role_members')) return;
  requireScope(principal, ['read:users', 'read:role_members']);
  requireScope(principal, ['read:roles', 'read:role_members']);
}
