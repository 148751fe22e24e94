/** The application of the federated-login tests: its callback page, and the exchange of the code it received. */
import assert from 'node:assert/strict';
import type http from 'node:http';
import { decodeJwt } from 'jose';
import type { ServerProcess } from '../../helpers/server-process.js';
import { httpsRequest } from './https.js';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** The application's callback: shows the code or the error it received. */
export const portalCallback: http.RequestListener = (req, res) => {
  const url = new URL(req.url ?? '/', 'https://localhost');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Portal</title></head><body><h1>Portal callback</h1><p id="code">${escapeHtml(url.searchParams.get('code') ?? '')}</p><p id="error">${escapeHtml(url.searchParams.get('error_description') ?? '')}</p></body></html>`);
};

/** The ID token's claims for the code the application's callback received. */
export async function portalIdToken(server: ServerProcess, ca: Buffer, client: { client_id: string; client_secret: string }, redirectUri: string, code: string): Promise<Record<string, unknown>> {
  const res = await httpsRequest(`${server.baseUrl}/oauth/token`, {
    ca,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', client_id: client.client_id, client_secret: client.client_secret, code, redirect_uri: redirectUri }),
  });
  assert.equal(res.status, 200, res.text);
  return decodeJwt(res.json<{ id_token: string }>().id_token);
}
