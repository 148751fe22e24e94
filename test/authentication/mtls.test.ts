/**
 * Custom domains and mTLS through the tenant's edge: a self-managed custom
 * domain is verified by its DNS TXT record (a DNS stand-in answers; the
 * resolvers are GATEHOUSE_DNS_SERVERS) and gets its `cname_api_key` once;
 * requests to it reach the tenant with its issuer. With that key, the edge's
 * `client-certificate` headers authenticate clients by `tls_client_auth`
 * (a CA-verified certificate with a registered subject) and
 * `self_signed_tls_client_auth` (a registered certificate), and bind the
 * tokens of clients that must be sender-constrained (`cnf.x5t#S256`).
 * Refused: the headers without the key or with a wrong one, another subject,
 * another certificate, a bound token without its certificate.
 */
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import dns2 from 'dns2';
import { decodeJwt } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { inProcessSdk } from '../helpers/in-process-sdk.js';
import { caSignedCertificate, selfSignedCertificate, type TestCertificate } from '../helpers/certificates.js';

const CUSTOM = 'login.mtls-customer.example';
const API = 'https://mtls.api.test/';
const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'Correct horse battery staple 1';

interface Domain {
  custom_domain_id: string;
  domain: string;
  status: string;
  type: string;
  cname_api_key?: string;
  verification: { methods: { name: string; record: string; domain: string }[] };
}

describe('custom domains and mTLS at the edge', () => {
  let t: TestApp;
  let dnsServer: ReturnType<typeof dns2.createServer>;
  const txt = new Map<string, string>();
  let edgeKey: string;
  let ca: TestCertificate;
  let caClient: { client_id: string };
  let selfClient: { client_id: string };
  let selfCert: TestCertificate;
  let clientCert: TestCertificate;

  /** The edge's headers; `key` null leaves cname-api-key out. */
  const edgeHeaders = (cert: TestCertificate, verdict: string, key: string | null = edgeKey): Record<string, string> => ({
    'client-certificate': encodeURIComponent(cert.pem),
    'client-certificate-ca-verified': verdict,
    ...(key !== null && { 'cname-api-key': key }),
  });
  const token = (clientId: string, headers: Record<string, string>, extra: Record<string, string> = {}) =>
    tokenRequest(t.app, { grant_type: 'client_credentials', client_id: clientId, audience: API, ...extra }, { form: true, headers });

  before(async () => {
    dnsServer = dns2.createServer({
      udp: true,
      handle: (request, send) => {
        const response = dns2.Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const value = question && txt.get(question.name.toLowerCase());
        if (question && value !== undefined) {
          response.answers.push({ name: question.name, type: dns2.Packet.TYPE.TXT, class: dns2.Packet.CLASS.IN, ttl: 1, data: value } as unknown as InstanceType<typeof dns2.Packet>['answers'][number]);
        }
        send(response);
      },
    });
    await dnsServer.listen({ udp: { port: 0, address: '127.0.0.1' } });
    const port = dnsServer.addresses().udp!.port;
    t = await createTestApp({ env: { GATEHOUSE_DNS_SERVERS: `127.0.0.1:${port}` } });
    assert.equal((await t.management('POST', '/api/v2/resource-servers', { body: { identifier: API, name: 'mtls api', scopes: [{ value: 'read:x' }] } })).statusCode, 201);

    ca = await selfSignedCertificate('CN=Test Edge CA, O=Acme');
    clientCert = await caSignedCertificate(ca, 'CN=payments-client, O=Acme, C=DE');
    selfCert = await selfSignedCertificate('CN=self-signed-client');
    const created = async (body: Record<string, unknown>) => {
      const res = await t.management('POST', '/api/v2/clients', { body: { app_type: 'non_interactive', grant_types: ['client_credentials', PASSWORD_REALM], ...body } });
      assert.equal(res.statusCode, 201, res.body);
      const client = res.json() as { client_id: string };
      assert.equal((await t.management('POST', '/api/v2/client-grants', { body: { client_id: client.client_id, audience: API, scope: ['read:x'] } })).statusCode, 201);
      return client;
    };
    caClient = await created({
      name: 'ca mtls',
      require_proof_of_possession: true,
      client_authentication_methods: { tls_client_auth: { credentials: [{ credential_type: 'cert_subject_dn', subject_dn: 'C=DE, O=Acme, CN=payments-client' }] } },
    });
    selfClient = await created({
      name: 'self-signed mtls',
      client_authentication_methods: { self_signed_tls_client_auth: { credentials: [{ credential_type: 'x509_cert', pem: selfCert.pem }] } },
    });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [caClient.client_id] } })).statusCode, 201);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'mtls@example.com', password: PASSWORD } })).statusCode, 201);
  });
  after(async () => {
    await t.close();
    await dnsServer.close();
  });

  it('a custom domain is pending until its TXT record is found; its edge key is answered once', async () => {
    const res = await t.management('POST', '/api/v2/custom-domains', { body: { domain: CUSTOM.toUpperCase(), type: 'self_managed_certs' } });
    assert.equal(res.statusCode, 201, res.body);
    const domain = res.json() as Domain;
    assert.equal(domain.domain, CUSTOM);
    assert.equal(domain.status, 'pending_verification');
    const [method] = domain.verification.methods;
    assert.equal(method!.name, 'txt');
    assert.equal(method!.domain, `_gatehouse-verification.${CUSTOM}`);

    const early = await t.management('POST', `/api/v2/custom-domains/${domain.custom_domain_id}/verify`);
    assert.equal(early.statusCode, 200, early.body);
    assert.equal((early.json() as Domain).status, 'pending_verification');
    assert.equal((early.json() as Domain).cname_api_key, undefined);
    assert.equal((await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: CUSTOM } })).statusCode, 404, 'not served before verification');

    txt.set(method!.domain, method!.record);
    const verified = (await t.management('POST', `/api/v2/custom-domains/${domain.custom_domain_id}/verify`)).json() as Domain;
    assert.equal(verified.status, 'ready');
    assert.match(verified.cname_api_key ?? '', /^[A-Za-z0-9_-]{40,}$/);
    edgeKey = verified.cname_api_key!;
    const again = (await t.management('POST', `/api/v2/custom-domains/${domain.custom_domain_id}/verify`)).json() as Domain;
    assert.equal(again.cname_api_key, undefined, 'the key is answered once');
    assert.equal(((await t.management('GET', `/api/v2/custom-domains/${domain.custom_domain_id}`)).json() as Domain).cname_api_key, undefined);
    assert.deepEqual(((await t.management('GET', '/api/v2/custom-domains')).json() as Domain[]).map((d) => d.domain), [CUSTOM]);

    assert.equal((await t.management('POST', '/api/v2/custom-domains', { body: { domain: CUSTOM, type: 'self_managed_certs' } })).statusCode, 409);
    assert.equal((await t.management('POST', '/api/v2/custom-domains', { body: { domain: 'bad_domain!', type: 'self_managed_certs' } })).statusCode, 400);
    assert.equal((await t.management('GET', '/api/v2/custom-domains/cd_unknown')).statusCode, 404);
    const patched = await t.management('PATCH', `/api/v2/custom-domains/${domain.custom_domain_id}`, { body: { custom_client_ip_header: 'cf-connecting-ip' } });
    assert.equal((patched.json() as { custom_client_ip_header: string }).custom_client_ip_header, 'cf-connecting-ip');
  });

  it('requests through the custom domain reach the tenant under its issuer; mtls. names the edge', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: CUSTOM } })).json() as Record<string, unknown>;
    assert.equal(doc.issuer, `https://${CUSTOM}/`);
    assert.equal(doc.token_endpoint, `https://${CUSTOM}/oauth/token`);
    assert.deepEqual((doc.mtls_endpoint_aliases as Record<string, string>).token_endpoint, `https://mtls.${CUSTOM}/oauth/token`);
    assert.equal(doc.tls_client_certificate_bound_access_tokens, true);
    assert.ok((doc.token_endpoint_auth_methods_supported as string[]).includes('tls_client_auth'));
    const viaEdge = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: `mtls.${CUSTOM}` } })).json() as Record<string, unknown>;
    assert.equal(viaEdge.issuer, `https://${CUSTOM}/`);
    const canonical = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.equal(canonical.issuer, `https://${DOMAIN}/`);
    assert.equal(canonical.mtls_endpoint_aliases, undefined);
  });

  it('tls_client_auth: a CA-verified certificate with the registered subject; tokens bound to it', async () => {
    const res = await token(caClient.client_id, edgeHeaders(clientCert, 'SUCCESS'));
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { access_token: string; token_type: string };
    assert.equal(body.token_type, 'Bearer');
    const thumbprint = createHash('sha256').update(new X509Certificate(clientCert.pem).raw).digest('base64url');
    assert.deepEqual(decodeJwt(body.access_token).cnf, { 'x5t#S256': thumbprint });
  });

  it('self_signed_tls_client_auth: the registered certificate itself', async () => {
    const res = await token(selfClient.client_id, edgeHeaders(selfCert, 'FAILED:self signed certificate'));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(decodeJwt((res.json() as { access_token: string }).access_token).cnf, undefined, 'not bound: the client need not be sender-constrained');
  });

  it('refuses the headers without the edge key, with a wrong key, another subject, another certificate', async () => {
    for (const [headers, what] of [
      [edgeHeaders(clientCert, 'SUCCESS', null), 'no cname-api-key'],
      [edgeHeaders(clientCert, 'SUCCESS', 'wrong-key'), 'wrong cname-api-key'],
      [edgeHeaders(await caSignedCertificate(ca, 'CN=intruder, O=Acme, C=DE'), 'SUCCESS'), 'another subject'],
      [edgeHeaders(clientCert, 'FAILED'), 'not CA-verified'],
    ] as const) {
      const res = await token(caClient.client_id, headers);
      // Ignored headers leave a bare client_id: the service's failed-authentication 401; believed ones name the failure.
      assert.equal(res.statusCode, 401, `${what}: ${res.body}`);
      assert.ok(['invalid_client', 'access_denied'].includes((res.json() as { error: string }).error), what);
    }
    const other = await token(selfClient.client_id, edgeHeaders(await selfSignedCertificate('CN=self-signed-client'), 'FAILED'));
    assert.equal(other.statusCode, 401, 'the same subject is not the same certificate');
    const oversized = await token(selfClient.client_id, { ...edgeHeaders(selfCert, 'FAILED'), 'client-certificate': encodeURIComponent(selfCert.pem + selfCert.pem) });
    assert.equal(oversized.statusCode, 401, 'a chain is not a leaf');
  });

  it('/userinfo refuses a certificate-bound token without its certificate', async () => {
    const res = await tokenRequest(
      t.app,
      { grant_type: PASSWORD_REALM, client_id: caClient.client_id, username: 'mtls@example.com', password: PASSWORD, realm: REALM, scope: 'openid email' },
      { form: true, headers: edgeHeaders(clientCert, 'SUCCESS') },
    );
    assert.equal(res.statusCode, 200, res.body);
    const access = (res.json() as { access_token: string }).access_token;
    const userinfo = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/userinfo', headers: { host: DOMAIN, authorization: `Bearer ${access}`, ...headers } });
    assert.equal((await userinfo(edgeHeaders(clientCert, 'SUCCESS'))).statusCode, 200);
    assert.equal((await userinfo({})).statusCode, 401);
    assert.equal((await userinfo(edgeHeaders(clientCert, 'SUCCESS', 'wrong-key'))).statusCode, 401);
    assert.equal((await userinfo(edgeHeaders(selfCert, 'FAILED'))).statusCode, 401);
  });

  it('the default domain (the auth0 SDK): a ready custom domain or the canonical one, the host of ticket links; test re-reads the TXT record', async () => {
    const sdk = await inProcessSdk(t);
    const [domain] = (await t.management('GET', '/api/v2/custom-domains')).json() as Domain[];
    assert.deepEqual(await sdk.customDomains.getDefault(), { domain: DOMAIN }, 'the canonical domain until one is chosen');
    const user = await sdk.users.create({ connection: 'Username-Password-Authentication', email: 'default-domain@example.com', password: 'Correct horse battery 9' });
    const ticketHost = async () => new URL((await sdk.tickets.changePassword({ user_id: user.user_id! })).ticket).host;
    assert.equal(await ticketHost(), DOMAIN);

    const chosen = await sdk.customDomains.setDefault({ domain: CUSTOM.toUpperCase() });
    assert.deepEqual([(chosen as Domain).custom_domain_id, (chosen as { is_default?: boolean }).is_default], [domain!.custom_domain_id, true]);
    assert.equal(((await sdk.customDomains.getDefault()) as Domain).domain, CUSTOM);
    assert.equal(((await sdk.customDomains.get(domain!.custom_domain_id)) as { is_default?: boolean }).is_default, true);
    assert.equal(await ticketHost(), CUSTOM, 'links name the default custom domain');

    assert.deepEqual(await sdk.customDomains.test(domain!.custom_domain_id), { success: true, message: `The verification record _gatehouse-verification.${CUSTOM} is in place.` });
    const record = txt.get(`_gatehouse-verification.${CUSTOM}`)!;
    txt.delete(`_gatehouse-verification.${CUSTOM}`);
    assert.equal((await sdk.customDomains.test(domain!.custom_domain_id)).success, false);
    txt.set(`_gatehouse-verification.${CUSTOM}`, record);

    // Refused: a domain that is not the tenant's, one not yet verified (for the default and the test), an unknown id.
    const pending = (await t.management('POST', '/api/v2/custom-domains', { body: { domain: 'pending.mtls-customer.example', type: 'auth0_managed_certs' } })).json() as Domain;
    for (const other of ['elsewhere.example.com', 'pending.mtls-customer.example']) {
      const refused = await t.management('PATCH', '/api/v2/custom-domains/default', { body: { domain: other } });
      assert.equal(refused.statusCode, 400, other);
      assert.match(refused.body, /must be a verified custom domain or the canonical domain/);
    }
    assert.equal((await t.management('POST', `/api/v2/custom-domains/${pending.custom_domain_id}/test`)).statusCode, 409);
    assert.equal((await t.management('POST', '/api/v2/custom-domains/cd_unknown/test')).statusCode, 404);
    assert.equal(((await sdk.customDomains.getDefault()) as Domain).domain, CUSTOM, 'a refused change changed nothing');
    assert.equal((await t.management('DELETE', `/api/v2/custom-domains/${pending.custom_domain_id}`)).statusCode, 204);

    assert.deepEqual(await sdk.customDomains.setDefault({ domain: DOMAIN }), { domain: DOMAIN });
    assert.deepEqual(await sdk.customDomains.getDefault(), { domain: DOMAIN });
    assert.equal(await ticketHost(), DOMAIN);
  });

  it('deleting the custom domain stops serving it', async () => {
    const [domain] = (await t.management('GET', '/api/v2/custom-domains')).json() as Domain[];
    assert.equal((await t.management('DELETE', `/api/v2/custom-domains/${domain!.custom_domain_id}`)).statusCode, 204);
    assert.equal((await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: CUSTOM } })).statusCode, 404);
    assert.equal((await token(caClient.client_id, edgeHeaders(clientCert, 'SUCCESS'))).statusCode, 401, 'its edge key is no longer believed');
  });
});
