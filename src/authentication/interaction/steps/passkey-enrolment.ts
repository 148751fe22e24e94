/**
 * Progressive passkey enrolment: after a login with a password in this
 * request, a user of a database connection with passkeys on and
 * `passkey_options.progressive_enrollment_enabled` (not false), who has no
 * passkey yet, is offered to create one, or to go on without (src/domain/
 * connections/passkey-options.ts). It comes after the MFA step, so a
 * password alone never adds a passkey where a second factor is asked (the
 * passkey would otherwise skip it next time). Declining or creating one
 * completes the step; it is offered again at the next password login.
 */
import type { RouteOptions } from 'fastify';
import { passkeySettings } from '../../../domain/connections/passkey-options.js';
import { passkeyRegistrationOptions, passkeysOf, storePasskey, verifyPasskeyRegistration } from '../../../domain/mfa/passkeys.js';
import { accountLabel } from '../../../domain/mfa/service.js';
import { PageError } from '../../errors.js';
import type { FormError } from '../../pages/authorize.js';
import { sendPage } from '../../pages/html.js';
import { passkeyEnrolmentPage } from '../../pages/passkeys.js';
import { credentialParam } from '../../pages/webauthn-form.js';
import { pageParams } from '../../params.js';
import { completeStep, stepRoute } from '../policy.js';
import type { Interaction, InteractionStep, StepDeps } from '../step.js';
import { formRedirects, transactionView } from './login.js';

const NAME = 'passkey-enrolment';

async function enrolmentView(deps: StepDeps, interaction: Interaction, error?: FormError) {
  const user = interaction.authenticated!.user;
  const ceremony = await passkeyRegistrationOptions(deps.ctx, interaction.tenant, interaction.transactionId!, 'enrol', { userId: user.user_id, name: accountLabel(user) });
  return passkeyEnrolmentPage({
    ...transactionView(deps, interaction),
    ceremony: { options: JSON.stringify(ceremony.options), state: ceremony.state },
    action: '/passkey/enrol',
    skip: true,
    ...(error && { error }),
  });
}

export const passkeyEnrolmentStep: InteractionStep = {
  name: NAME,
  page: () => '/passkey/enrol',
  promptNone: { error: 'interaction_required', description: 'Interaction required' },
  needed: async (deps, interaction) => {
    const user = interaction.authenticated?.user;
    if (!user?.password_hash || !interaction.completed.includes('login')) return false;
    const connection = await deps.ctx.stores.connections.get(interaction.tenant.id, user.connection_id);
    if (!passkeySettings(connection)?.progressiveEnrolment) return false;
    return (await passkeysOf(deps.ctx, interaction.tenant.id, user.user_id)).length === 0;
  },
  routes: (deps): RouteOptions[] => [
    stepRoute(deps, NAME, 'GET', '/passkey/enrol', async (interaction, _request, reply) => sendPage(reply, 200, await enrolmentView(deps, interaction), formRedirects(interaction))),
    stepRoute(deps, NAME, 'POST', '/passkey/enrol', async (interaction, request, reply) => {
      const params = pageParams(request, ['skip', 'passkey_state', 'credential']);
      if (params.skip === 'true') return completeStep(deps, reply, interaction, NAME);
      const user = interaction.authenticated!.user;
      const passkey = await verifyPasskeyRegistration(deps.ctx, interaction.tenant, interaction.transactionId!, 'enrol', params.passkey_state, credentialParam(params.credential));
      const refuse = async (key: 'refusedText' | 'tooManyText') =>
        new PageError(400, await enrolmentView(deps, interaction, { message: (ui) => ui.text('passkeys', 'passkey-enrollment', key) }), formRedirects(interaction));
      if (!passkey || passkey.userId !== user.user_id) throw await refuse('refusedText');
      if (!(await storePasskey(deps.ctx, interaction.tenant.id, passkey))) throw await refuse('tooManyText');
      return completeStep(deps, reply, interaction, NAME);
    }),
  ],
};
