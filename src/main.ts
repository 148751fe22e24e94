/**
 * Entry point of `npm start` and the `gatehouse` command.
 */
import { ConfigError, helpText, loadConfig, type Config } from './platform/config.js';
import { adminCredentialsOf, createContext, createLogger } from './app/context.js';
import { TenantError } from './domain/tenants/service.js';
import type { RateLimitClass } from './domain/tenants/tenant.js';
import { startServer } from './app/server.js';
import { issueSetupLink } from './domain/console/setup.js';
import { isClusterWorker, runPrimary } from './app/cluster.js';
import { restoreYoungGenerationGrowth } from './platform/heap.js';
import { startTracing } from './platform/tracing/tracing.js';
import { backupCommand, BackupError, restoreCommand } from './app/backup.js';

async function serve(config: Config): Promise<void> {
  // GATEHOUSE_WORKERS > 1: this process is the primary and the workers serve (./app/cluster.ts).
  if (config.workers > 1 && !isClusterWorker()) return runPrimary(config);
  // A signal that arrives while the server is still starting (a worker the cluster replaced, a deploy
  // cancelled early) is kept and acted on once it is up, so the process still closes its database and
  // log writer instead of dying on the signal's default action.
  let shutdown: ((signal: string) => void) | undefined;
  let pending: string | undefined;
  const onSignal = (signal: string) => (shutdown ? shutdown(signal) : (pending ??= signal));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  // Traces when OTEL_EXPORTER_OTLP_ENDPOINT is set: started before the server requires pg, ioredis or opens a connection.
  const tracing = await startTracing();
  const server = await startServer(config, isClusterWorker() ? () => undefined : console.log, tracing);
  restoreYoungGenerationGrowth();
  shutdown = (signal: string) => {
    server.ctx.logger.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing in-flight requests');
    // The grace is for the requests (src/app/server.ts); a shutdown still not done 5 s after it (a database that hangs) gives up.
    const force = setTimeout(() => {
      server.ctx.logger.error('shutdown did not finish; exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 5_000);
    force.unref();
    server.stop().then(
      (graceful) => process.exit(graceful ? 0 : 1),
      (error: unknown) => {
        server.ctx.logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  if (pending !== undefined) shutdown(pending);
}

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

async function tenantsCommand(config: Config, args: string[]): Promise<number> {
  const ctx = await createContext(config, createLogger({ logLevel: 'warn' }));
  try {
    const [sub, ...rest] = args;
    switch (sub) {
      case 'create': {
        const domain = rest[0];
        if (!domain || domain.startsWith('--')) throw new TenantError('usage: gatehouse tenants create <domain> [--name <name>]');
        const name = option(rest, '--name');
        const created = await ctx.tenants.create({ domain, ...(name !== undefined && { name }) });
        console.log(
          JSON.stringify(
            {
              tenant: created.tenant.name,
              domain: created.tenant.domain,
              issuer: created.tenant.issuer,
              client_id: created.adminClientId,
              client_secret: created.adminClientSecret,
              audience: `https://${created.tenant.domain}/api/v2/`,
            },
            null,
            2,
          ),
        );
        return 0;
      }
      case 'list': {
        for (const t of await ctx.tenants.list()) console.log(`${t.name}\t${t.domain}\t${t.createdAt}`);
        return 0;
      }
      case 'credentials': {
        const tenant = rest[0] ? await ctx.tenants.byDomain(rest[0]) : undefined;
        if (!tenant) throw new TenantError(`no tenant serves "${rest[0] ?? ''}"; usage: gatehouse tenants credentials <domain>`);
        console.log(JSON.stringify(await adminCredentialsOf(ctx, tenant), null, 2));
        return 0;
      }
      case 'set-rate-limit': {
        const [domain, bucket, value] = rest;
        const tenant = domain ? await ctx.tenants.byDomain(domain) : undefined;
        const match = value ? /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value) : null;
        const buckets = ['management', 'authentication', 'management_clients_query'];
        if (!tenant || !bucket || !buckets.includes(bucket) || !match) {
          throw new TenantError(`usage: gatehouse tenants set-rate-limit <domain> <${buckets.join('|')}> <burst>/<per-second>`);
        }
        const rateLimits = { ...tenant.settings.rate_limits, [bucket as RateLimitClass]: { burst: Number(match[1]), perSecond: Number(match[2]) } };
        // The write invalidates the tenant: running servers hear it through Redis when REDIS_URL is set; otherwise they reread within 30 s.
        await ctx.tenants.updateSettings(tenant, { ...tenant.settings, rate_limits: rateLimits });
        console.log(`${tenant.domain}: ${bucket} rate limit set to ${value}`);
        return 0;
      }
      default:
        throw new TenantError('usage: gatehouse tenants <create|list|credentials|set-rate-limit> …');
    }
  } finally {
    await ctx.close();
  }
}

/** `gatehouse admin-link [--tenant <domain>]`: a new one-time link that creates an operator of the admin console. */
async function adminLinkCommand(config: Config, args: string[]): Promise<number> {
  const domain = option(args, '--tenant') ?? config.defaultDomain;
  const ctx = await createContext(config, createLogger({ logLevel: 'warn' }));
  try {
    const tenant = await ctx.tenants.byDomain(domain);
    if (!tenant) throw new TenantError(`no tenant serves "${domain}"; usage: gatehouse admin-link [--tenant <domain>]`);
    const link = await issueSetupLink(ctx, tenant);
    console.log(`One-time link to create an administrator of ${tenant.domain}'s admin console (until ${link.expiresAt}):`);
    console.log(`  ${link.url}`);
    return 0;
  } finally {
    await ctx.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`gatehouse: invalid configuration: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const [command = 'serve', ...rest] = argv;
  try {
    if (command === 'serve') {
      await serve(config);
      return -1; // keep running
    }
    if (command === 'tenants') return await tenantsCommand(config, rest);
    if (command === 'admin-link') return await adminLinkCommand(config, rest);
    if (command === 'backup') return await backupCommand(config, rest);
    if (command === 'restore') return await restoreCommand(config, rest);
    console.error(`gatehouse: unknown command "${command}"\n`);
    process.stderr.write(helpText());
    return 2;
  } catch (error) {
    if (error instanceof TenantError || error instanceof BackupError) {
      console.error(`gatehouse: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error('gatehouse: failed to start:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
