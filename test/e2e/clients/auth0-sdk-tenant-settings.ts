/**
 * Drives the official `auth0` SDK (v7) through attack protection, the email
 * provider, email templates and organizations' discovery domains. Prints one
 * JSON result; test/e2e/auth0-sdk-tenant-settings.test.ts runs it as its own
 * process with NODE_EXTRA_CA_CERTS, so TLS verification is real.
 *
 * Usage: node --import tsx auth0-sdk-tenant-settings.ts '{"domain":…,"clientId":…,"clientSecret":…}'
 */
import { ManagementClient } from 'auth0';

interface Input {
  domain: string;
  clientId: string;
  clientSecret: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as Input;
const management = new ManagementClient({ domain: input.domain, clientId: input.clientId, clientSecret: input.clientSecret, maxRetries: 0 });
const out: Record<string, unknown> = {};

async function all<T>(page: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of page) items.push(item);
  return items;
}

async function failure(call: Promise<unknown>): Promise<{ statusCode: number | undefined; body: unknown }> {
  try {
    await call;
  } catch (error) {
    const e = error as { statusCode?: number; body?: unknown };
    return { statusCode: e.statusCode, body: e.body };
  }
  throw new Error('expected the call to be refused');
}

const ap = management.attackProtection;
out.bruteForceDefaults = await ap.bruteForceProtection.get();
out.bruteForceUpdated = await ap.bruteForceProtection.update({ max_attempts: 5, allowlist: ['10.0.0.0/8'], mode: 'count_per_identifier' });
out.bruteForceRead = await ap.bruteForceProtection.get();
out.bruteForceBad = await failure(ap.bruteForceProtection.update({ allowlist: ['999.1.1.1'] }));
out.suspiciousIp = await ap.suspiciousIpThrottling.update({ enabled: false });
out.breached = await ap.breachedPasswordDetection.get();

out.providerMissing = await failure(management.emails.provider.get());
out.providerCreated = await management.emails.provider.create({
  name: 'smtp',
  enabled: false,
  default_from_address: 'accounts@customer.example',
  credentials: { smtp_host: 'smtp.customer.example', smtp_port: 587, smtp_user: 'mailer', smtp_pass: 'never-shown' },
});
out.providerUpdated = await management.emails.provider.update({ credentials: { smtp_port: 2525 } });
out.providerRead = await management.emails.provider.get();

out.templateCreated = await management.emailTemplates.create({
  template: 'verify_email',
  body: '<a href="{{ url }}">Verify {{ user.email }}</a>',
  from: 'accounts@customer.example',
  subject: 'Verify your address',
  syntax: 'liquid',
  enabled: true,
  urlLifetimeInSeconds: 3600,
});
out.templateUpdated = await management.emailTemplates.update('verify_email', { subject: 'Please verify' });
out.templateSet = await management.emailTemplates.set('reset_email', { template: 'reset_email', body: '<a href="{{ url }}">Reset</a>', from: null, subject: 'Reset', syntax: 'liquid', enabled: true });
out.templateRead = await management.emailTemplates.get('verify_email');
out.templateConflict = await failure(management.emailTemplates.create({ template: 'verify_email', body: 'x', from: null, subject: 'x', syntax: 'liquid', enabled: true }));

const organization = await management.organizations.create({ name: 'discovery-sdk' });
const created = await management.organizations.discoveryDomains.create(organization.id!, { domain: 'Customer.Example', status: 'verified' });
out.domainCreated = created;
out.domainByName = await management.organizations.discoveryDomains.getByName(organization.id!, 'customer.example');
out.domainUpdated = await management.organizations.discoveryDomains.update(organization.id!, created.id, { use_for_organization_discovery: false });
for (const name of ['a.example', 'b.example', 'c.example']) await management.organizations.discoveryDomains.create(organization.id!, { domain: name });
out.domainsListed = (await all(await management.organizations.discoveryDomains.list(organization.id!, { take: 2 }))).map((d) => d.domain).sort();
await management.organizations.discoveryDomains.delete(organization.id!, created.id);
out.domainGone = await failure(management.organizations.discoveryDomains.get(organization.id!, created.id));

process.stdout.write(JSON.stringify(out));
