/**
 * A customer's SAML identity provider for end-to-end tests, on samlify
 * (test/helpers/saml.ts `externalIdp`): /sso reads the AuthnRequest and shows
 * a sign-in button, /signin answers it with a signed Response posted to the
 * SP's ACS URL, /start posts an unsolicited one (IdP-initiated).
 */
import type http from 'node:http';
import type { ExternalIdp } from '../../helpers/saml.js';
import { escapeHtml } from './portal.js';

export interface SamlIdpPages {
  /** The IdP (made once its server listens). */
  idp: () => ExternalIdp;
  /** The SP's metadata, as the IdP was given it. */
  spMetadata: () => string;
  /** The IdP's name in its pages: `{name} sign-in`, `Sign in as {user}`. */
  name: string;
  user: { nameId: string; email: string; givenName: string };
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/** A page that posts the Response to the SP's ACS URL. */
function postToAcs(res: http.ServerResponse, name: string, spMetadata: string, samlResponse: string, relayState: string | undefined): void {
  const acs = /AssertionConsumerService[^>]*Location="([^"]+)"/.exec(spMetadata)![1]!.replace(/&amp;/g, '&');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(name)} IdP</title></head><body>
<form method="post" action="${escapeHtml(acs)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">
${relayState === undefined ? '' : `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">`}</form>
<script>document.forms[0].submit()</script></body></html>`);
}

export function samlIdpListener(options: SamlIdpPages): http.RequestListener {
  const { name, user } = options;
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const idp = options.idp();
      const spMetadata = options.spMetadata();
      if (req.method === 'GET' && url.pathname === '/sso') {
        const requestId = await idp.readRequest(spMetadata, url.href);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(name)} IdP</title></head><body><h1>${escapeHtml(name)} sign-in</h1>
<form method="post" action="/signin"><input type="hidden" name="request" value="${escapeHtml(requestId)}"><input type="hidden" name="relay" value="${escapeHtml(url.searchParams.get('RelayState') ?? '')}">
<button type="submit">Sign in as ${escapeHtml(user.givenName)}</button></form></body></html>`);
      }
      if (req.method === 'POST' && url.pathname === '/signin') {
        const form = await readForm(req);
        const response = await idp.respond(spMetadata, { inResponseTo: form.get('request')!, ...user });
        return postToAcs(res, name, spMetadata, response, form.get('relay') || undefined);
      }
      if (req.method === 'GET' && url.pathname === '/start') return postToAcs(res, name, spMetadata, await idp.respond(spMetadata, user), undefined);
      res.writeHead(404);
      res.end();
    })().catch((error: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`identity provider error: ${error.message}`);
    });
  };
}
