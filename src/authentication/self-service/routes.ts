/**
 * The page a self-service SSO ticket opens, for the customer's
 * administrator (the ticket's URL, made by POST
 * /api/v2/self-service-profiles/{id}/sso-ticket):
 *
 * - GET /self-service/connections-flow?ticket=…: the profile's name and
 *   texts, and a form for the identity provider's SAML metadata;
 * - POST /self-service/connections-flow (form: ticket, metadata): creates
 *   the SAML connection (./service.ts) and says how to test it.
 *
 * The ticket itself is the credential, in the form's body: a forged
 * cross-site post would need it. Pages are bare documents with their own
 * CSP (no script); a refused ticket is 400 without saying why.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { bareDocument, html, PAGE_CSP, sendHtml, type Html } from '../pages/html.js';
import { SelfServiceSetup, type SelfServiceSetupContext } from './service.js';

const URL_PATH = '/self-service/connections-flow';

function invalid(reply: FastifyReply): FastifyReply {
  return sendHtml(reply, 400, PAGE_CSP, bareDocument('Link not valid', html`<h1>This link is not valid</h1><p>It may have been used, revoked or have expired. Ask for a new one.</p>`));
}

function form(ticket: string, title: string, intro: string, error?: string): Html {
  return bareDocument(
    title,
    html`<h1>${title}</h1>
<p>${intro}</p>
${error === undefined ? '' : html`<p role="alert" id="error">${error}</p>`}
<form method="post" action="${URL_PATH}">
<input type="hidden" name="ticket" value="${ticket}">
<label for="metadata">Your identity provider's SAML 2.0 metadata (XML)</label>
<textarea id="metadata" name="metadata" rows="12" cols="60" required></textarea>
<button type="submit">Create the connection</button>
</form>`,
  );
}

const field = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function selfServiceRoutes(ctx: SelfServiceSetupContext): RouteOptions[] {
  const setup = new SelfServiceSetup(ctx);
  return [
    {
      method: 'GET',
      url: URL_PATH,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const ticket = field((request.query as Record<string, unknown>).ticket);
        const state = await setup.ticket(request.tenant, ticket);
        if (!state.usable) return invalid(reply);
        const texts = state.profile.custom_text.en?.['get-started'] ?? {};
        const title = texts.title ?? `Set up single sign-on: ${state.profile.name}`;
        const intro = texts.description ?? 'Paste the SAML metadata of your identity provider. A connection is created for your organization; your users then sign in through your identity provider.';
        return sendHtml(reply, 200, PAGE_CSP, form(ticket!, title, intro));
      },
    },
    {
      method: 'POST',
      url: URL_PATH,
      bodyLimit: 512 * 1024,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const ticket = field(body.ticket);
        const outcome = await setup.setUp(request.tenant, ticket, field(body.metadata) ?? '');
        switch (outcome.kind) {
          case 'invalid_ticket':
            return invalid(reply);
          case 'bad_metadata':
            return sendHtml(reply, 400, PAGE_CSP, form(ticket!, 'Set up single sign-on', 'The metadata could not be taken.', outcome.message));
          case 'name_taken':
            return sendHtml(reply, 409, PAGE_CSP, bareDocument('Connection exists', html`<h1>A connection with this name already exists</h1><p>Ask for a new link.</p>`));
          case 'created':
            return sendHtml(
              reply,
              201,
              PAGE_CSP,
              bareDocument(
                'Single sign-on is ready',
                html`<h1>Single sign-on is ready</h1><p role="status">The connection <strong id="connection">${outcome.connection.name}</strong> is set up. Give your identity provider this service provider's metadata:</p>
<p><a id="sp-metadata" href="/samlp/metadata?connection=${encodeURIComponent(outcome.connection.name)}">/samlp/metadata?connection=${outcome.connection.name}</a></p>`,
              ),
            );
        }
      },
    },
  ];
}
