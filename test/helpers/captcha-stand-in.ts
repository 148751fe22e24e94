/**
 * A local HTTPS stand-in for the CAPTCHA providers' verify endpoints
 * (Google, hCaptcha and Friendly Captcha cannot be reached from the tests),
 * under a self-made certificate the app trusts through GATEHOUSE_CAPTCHA_CA_FILE:
 *
 * - `POST /recaptcha/api/siteverify`, `POST /hcaptcha/siteverify`: form
 *   `secret`, `response` (and `remoteip`, `sitekey`);
 * - `POST /friendly/api/v1/siteverify`: form `solution`, `secret`, `sitekey`.
 *
 * Each answers `{ success: true }` only for the secret it was given and a
 * token from `issue()` (used once, as the providers do), else
 * `{ success: false, error-codes }`. Every request is recorded.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';

export interface CaptchaStandIn {
  /** Base URL; the verify URLs are below it. */
  url: string;
  recaptchaUrl: string;
  hcaptchaUrl: string;
  friendlyUrl: string;
  /** The stand-in's certificate in a file: GATEHOUSE_CAPTCHA_CA_FILE. */
  caFile: string;
  requests: { path: string; form: Record<string, string> }[];
  /** A token the widget would have posted after a solved challenge. */
  issue(): string;
  close(): Promise<void>;
}

export async function startCaptchaStandIn(secret: string): Promise<CaptchaStandIn> {
  const material = await createTlsCertificate(['127.0.0.1', 'localhost']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-captcha-'));
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, material.certPem);
  const tokens = new Set<string>();
  const requests: CaptchaStandIn['requests'] = [];
  const server = https.createServer({ cert: material.certPem, key: material.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ path: req.url ?? '', form });
      const token = req.url === '/friendly/api/v1/siteverify' ? form.solution : form.response;
      const known = ['/recaptcha/api/siteverify', '/hcaptcha/siteverify', '/friendly/api/v1/siteverify'].includes(req.url ?? '');
      if (req.method !== 'POST' || !known) {
        res.writeHead(404).end();
        return;
      }
      const success = form.secret === secret && token !== undefined && tokens.delete(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(success ? { success: true } : { success: false, 'error-codes': [form.secret === secret ? 'invalid-input-response' : 'invalid-input-secret'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    recaptchaUrl: `${url}/recaptcha/api/siteverify`,
    hcaptchaUrl: `${url}/hcaptcha/siteverify`,
    friendlyUrl: `${url}/friendly/api/v1/siteverify`,
    caFile,
    requests,
    issue() {
      const token = randomBytes(16).toString('base64url');
      tokens.add(token);
      return token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
