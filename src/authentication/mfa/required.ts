/**
 * The token endpoint's side of "this login needs a second factor": after a
 * password grant verified the password, `requireSecondFactor` answers 403
 * `mfa_required` (wire notes §5.1) with an `mfa_token` when the tenant's MFA
 * policy requires one of this user (src/domain/mfa/service.ts
 * `mfaRequired`), or when the grant asked for the MFA API's audience. The
 * token is bound to the user and the client, lives `mfa_token` seconds, and
 * carries the audience and scope asked, which the MFA grant then issues.
 *
 * `mfa_requirements` says what the user may answer with (`challenge`: their
 * confirmed factors, the recovery code included) or, with none, what they
 * may enrol (`enroll`: the enabled factors).
 */
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { mfaAudience } from '../../domain/mfa/api-token.js';
import { sealMfaToken, type MfaTokenContext } from '../../domain/mfa/mfa-token.js';
import { factorEnabled, factorOf, SECOND_FACTORS } from '../../domain/mfa/factors/registry.js';
import { mfaRequired, mfaSettings, secondFactors, usableAuthenticators, type MfaContext } from '../../domain/mfa/service.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { UserRow } from '../../domain/users/model.js';
import { MfaRequiredError, type MfaRequirement } from '../errors.js';


/** What deciding that a login needs a second factor touches. */
export interface MfaRequiredContext extends MfaContext, MfaTokenContext {
  readonly stores: MfaContext['stores'] & MfaTokenContext['stores'];
}

async function requirements(ctx: MfaRequiredContext, tenant: Tenant, userId: string): Promise<{ challenge: MfaRequirement[] } | { enroll: MfaRequirement[] }> {
  const settings = await mfaSettings(ctx, tenant.id);
  const confirmed = (await usableAuthenticators(ctx, tenant.id, userId, settings)).filter((a) => a.confirmed === 1);
  if (secondFactors(confirmed).length > 0) {
    return { challenge: [...new Set(confirmed.flatMap((a) => factorOf(a)?.requirement.challenge ?? []))].map((type) => ({ type })) };
  }
  return { enroll: SECOND_FACTORS.filter((f) => f.requirement.enroll !== undefined && factorEnabled(settings.factors, f)).map((f) => ({ type: f.requirement.enroll! })) };
}

export async function requireSecondFactor(
  ctx: MfaRequiredContext,
  tenant: Tenant,
  client: IssuanceClient,
  user: UserRow,
  asked: { audience: string | undefined; scope: string | undefined },
): Promise<void> {
  const forMfaApi = asked.audience === mfaAudience(tenant);
  if (!(await mfaRequired(ctx, tenant.id, user.user_id, forMfaApi))) return;
  const token = sealMfaToken(
    ctx,
    tenant,
    {
      sub: user.user_id,
      client_id: client.row.client_id,
      ...(asked.audience !== undefined && { audience: asked.audience }),
      ...(asked.scope !== undefined && { scope: asked.scope }),
    },
    lifetimeOf(tenant, 'mfa_token'),
  );
  throw new MfaRequiredError(token, await requirements(ctx, tenant, user.user_id));
}
