/**
 * Local stand-ins for the two push providers Gatehouse speaks to, since
 * Apple and AWS cannot be reached from the tests:
 *
 * - APNs: an HTTP/2 server over TLS (its certificate signed by a test CA
 *   the app trusts through GATEHOUSE_PUSH_CA_FILE) that requires a client
 *   certificate signed by that CA with the expected subject, and answers
 *   `POST /3/device/{token}` as Apple does (200 and `apns-id`, or 400/403
 *   with `{reason}`); each notification is kept for the test to read.
 *   `providerP12()` makes the PKCS#12 file an administrator would upload
 *   (the client certificate and its key, no passphrase, through the
 *   openssl command line as Apple's instructions have it).
 * - SNS: an HTTP server speaking SNS's query API (form bodies signed with
 *   SigV4 by the AWS SDK): `Action=CreatePlatformEndpoint` answers an
 *   endpoint ARN, `Action=Publish` to that ARN keeps the message; a request
 *   signed with another access key id gets SNS's 403 XML error.
 */
// @peculiar/x509 needs the Reflect metadata polyfill loaded first (tsyringe); the server loads it only when it makes a certificate.
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import * as x509 from '@peculiar/x509';
import { type TestCertificate } from './certificates.js';

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;

async function keyPem(keys: webcrypto.CryptoKeyPair): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`;
}

async function rsaKeys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

const validity = () => ({ notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 30 * 86_400_000) });
const serial = () => '02' + randomBytes(7).toString('hex');

/** A certificate authority (basic constraints CA, key usage keyCertSign) as OpenSSL wants one. */
async function certificateAuthority(commonName: string): Promise<TestCertificate> {
  const keys = await rsaKeys();
  const subject = `CN=${commonName}`;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: subject,
    ...validity(),
    signingAlgorithm: RSA,
    keys,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true)],
  });
  return { pem: cert.toString('pem'), keys, subject };
}

/** A leaf certificate signed by `ca`: a TLS server for 127.0.0.1 and localhost, or a TLS client. */
async function leafCertificate(ca: TestCertificate, subject: string, usage: 'server' | 'client'): Promise<{ cert: string; key: string }> {
  const keys = await rsaKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: ca.subject,
    ...validity(),
    signingAlgorithm: RSA,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions: [
      ...(usage === 'server'
        ? [
            new x509.SubjectAlternativeNameExtension([
              { type: 'ip', value: '127.0.0.1' },
              { type: 'dns', value: 'localhost' },
            ]),
          ]
        : []),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    ],
  });
  return { cert: cert.toString('pem'), key: await keyPem(keys) };
}

export interface ApnsNotificationSeen {
  deviceToken: string;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
}

export interface ApnsStandIn {
  url: string;
  /** The CA's PEM in a file: GATEHOUSE_PUSH_CA_FILE. */
  caFile: string;
  notifications: ApnsNotificationSeen[];
  /** Handshakes refused for a missing or foreign client certificate. */
  refusedHandshakes: number;
  /** A PKCS#12 of a client certificate with this subject CN, signed by the stand-in's CA unless `foreign`; base64, as the Management API takes it. */
  providerP12(commonName: string, options?: { foreign?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** `expectedSubject`: the CN the client certificate must have (Apple's is the app's push certificate). */
export async function startApnsStandIn(expectedSubject: string): Promise<ApnsStandIn> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-apns-'));
  const ca = await certificateAuthority('Test Push CA');
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, ca.pem);
  const { cert, key } = await leafCertificate(ca, 'CN=127.0.0.1', 'server');
  const notifications: ApnsNotificationSeen[] = [];
  const server = http2.createSecureServer({ cert, key, ca: ca.pem, requestCert: true, rejectUnauthorized: true, allowHTTP1: false });
  const standIn: ApnsStandIn = {
    url: '',
    caFile,
    notifications,
    refusedHandshakes: 0,
    async providerP12(commonName, options = {}) {
      const signer = options.foreign ? await certificateAuthority('Someone Else CA') : ca;
      const client = await leafCertificate(signer, `CN=${commonName}`, 'client');
      const keyFile = path.join(dir, `${randomUUID()}.key`);
      const certFile = path.join(dir, `${randomUUID()}.pem`);
      fs.writeFileSync(keyFile, client.key);
      fs.writeFileSync(certFile, client.cert);
      const p12 = execFileSync('openssl', ['pkcs12', '-export', '-inkey', keyFile, '-in', certFile, '-passout', 'pass:']);
      return p12.toString('base64');
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        fs.rmSync(dir, { recursive: true, force: true });
      }),
  };
  server.on('tlsClientError', () => {
    standIn.refusedHandshakes += 1;
  });
  server.on('stream', (stream, headers) => {
    const answer = (status: number, reason?: string) => {
      stream.respond({ ':status': status, 'apns-id': randomUUID(), 'content-type': 'application/json' });
      stream.end(reason === undefined ? undefined : JSON.stringify({ reason }));
    };
    const peer = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate();
    if (!peer || peer.subject?.CN !== expectedSubject) return answer(403, 'BadCertificate');
    const match = /^\/3\/device\/([0-9A-Za-z:_\-.]+)$/.exec(String(headers[':path']));
    if (headers[':method'] !== 'POST' || !match) return answer(405, 'MethodNotAllowed');
    if (!headers['apns-topic']) return answer(400, 'MissingTopic');
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      let payload: Record<string, unknown>;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      } catch {
        return answer(400, 'PayloadEmpty');
      }
      const seen: Record<string, string> = {};
      for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':')) seen[name] = String(value);
      notifications.push({ deviceToken: match[1]!, headers: seen, payload });
      answer(200);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

export interface SnsPublished {
  targetArn: string;
  platformApplicationArn: string;
  token: string;
  message: Record<string, string>;
}

export interface SnsStandIn {
  url: string;
  published: SnsPublished[];
  endpointsCreated: number;
  close(): Promise<void>;
}

const SNS_NS = 'http://sns.amazonaws.com/doc/2010-03-31/';

/** `accessKeyId`: the key the requests must be signed with (SigV4 `Credential=`). */
export async function startSnsStandIn(accessKeyId: string): Promise<SnsStandIn> {
  const endpoints = new Map<string, { platformApplicationArn: string; token: string }>();
  const published: SnsPublished[] = [];
  const standIn: SnsStandIn = { url: '', published, endpointsCreated: 0, close: () => new Promise((resolve) => server.close(() => resolve())) };
  const xml = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/xml' });
    res.end(`<?xml version="1.0"?>\n${body}`);
  };
  const error = (res: http.ServerResponse, status: number, code: string, message: string) =>
    xml(res, status, `<ErrorResponse xmlns="${SNS_NS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('AWS4-HMAC-SHA256 ') || !auth.includes(`Credential=${accessKeyId}/`) || !/Signature=[0-9a-f]{64}/.test(auth)) {
        return error(res, 403, 'InvalidClientTokenId', 'The security token included in the request is invalid.');
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      const requestId = `<ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata>`;
      switch (form.get('Action')) {
        case 'CreatePlatformEndpoint': {
          const platformApplicationArn = form.get('PlatformApplicationArn');
          const token = form.get('Token');
          if (!platformApplicationArn || !token) return error(res, 400, 'InvalidParameter', 'Invalid parameter');
          const arn = `${platformApplicationArn.replace(':app/', ':endpoint/')}/${randomUUID()}`;
          endpoints.set(arn, { platformApplicationArn, token });
          standIn.endpointsCreated += 1;
          return xml(res, 200, `<CreatePlatformEndpointResponse xmlns="${SNS_NS}"><CreatePlatformEndpointResult><EndpointArn>${arn}</EndpointArn></CreatePlatformEndpointResult>${requestId}</CreatePlatformEndpointResponse>`);
        }
        case 'Publish': {
          const target = endpoints.get(form.get('TargetArn') ?? '');
          if (!target) return error(res, 404, 'NotFound', 'Endpoint does not exist');
          if (form.get('MessageStructure') !== 'json') return error(res, 400, 'InvalidParameter', 'MessageStructure must be json');
          published.push({ targetArn: form.get('TargetArn')!, ...target, message: JSON.parse(form.get('Message') ?? '{}') as Record<string, string> });
          return xml(res, 200, `<PublishResponse xmlns="${SNS_NS}"><PublishResult><MessageId>${randomUUID()}</MessageId></PublishResult>${requestId}</PublishResponse>`);
        }
        default:
          return error(res, 400, 'InvalidAction', 'Unknown action');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
