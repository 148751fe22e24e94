/**
 * Start-up checks, all run before anything is created or written: a start
 * that cannot succeed leaves the data directory and the database as they were
 * (no tenant created, no admin-credentials.json, no key or certificate
 * generated). Each failure names the variable or path it is about; they are
 * reported together and the process exits non-zero (src/main.ts).
 *
 * The checks: the ports are free, the TLS files are readable and belong
 * together, the MaxMind databases named are databases of their kind, the data
 * directory (and the SQLite file's) is writable, the database answers, and
 * the master key opens what is sealed in it.
 */
import { createPrivateKey, X509Certificate, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../platform/config.js';
import { existingMasterKey, masterKeySource } from '../platform/crypto/master-key.js';
import { SecretBox } from '../platform/crypto/secret-box.js';
import { wrapContext } from '../domain/encryption/keyring.js';
import { clientSecretContext } from '../domain/tenants/service.js';
import { probeDatabase } from '../storage/probe.js';
import { openGeoDatabases } from '../platform/geoip.js';

export class StartupCheckError extends Error {
  constructor(readonly failures: string[]) {
    super(`start-up checks failed; nothing was created or written:\n  - ${failures.join('\n  - ')}`);
    this.name = 'StartupCheckError';
  }
}

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Whether a listener can bind `host:port` now (the listener is closed again at once). */
function portProblem(variable: string, host: string, port: number): Promise<string | undefined> {
  const attempt = (bindHost: string) =>
    new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const server = net.createServer();
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
      server.listen({ host: bindHost, port, exclusive: true }, () => server.close(() => resolve(undefined)));
    });
  return attempt(host).then(async (error) => {
    // "All interfaces" is '::' (dual stack); a host without IPv6 binds 0.0.0.0 (as src/app/server.ts does).
    if (error?.code === 'EAFNOSUPPORT' && host === '::') error = await attempt('0.0.0.0');
    if (!error) return undefined;
    if (error.code === 'EADDRINUSE') return `${variable}: port ${port} on ${host} is already in use`;
    if (error.code === 'EACCES') return `${variable}: not permitted to listen on port ${port} on ${host}`;
    return `${variable}: cannot listen on ${host}:${port} (${error.code ?? error.message})`;
  });
}

/**
 * A directory Gatehouse writes to: an existing one must be a directory that
 * takes a file (a probe file is written and removed); a missing one must be
 * creatable, i.e. its nearest existing ancestor writable.
 */
function directoryProblem(label: string, dir: string): string | undefined {
  let existing = dir;
  while (!fs.existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    existing = parent;
  }
  try {
    if (!fs.statSync(existing).isDirectory()) return `${label}: ${existing} is not a directory`;
    if (existing !== dir) {
      fs.accessSync(existing, fs.constants.W_OK | fs.constants.X_OK);
      return undefined;
    }
    const probe = path.join(dir, `.gatehouse-write-check-${randomBytes(6).toString('hex')}`);
    fs.writeFileSync(probe, '', { flag: 'wx' });
    fs.rmSync(probe);
    return undefined;
  } catch (error) {
    return `${label}: ${dir} is not writable (${(error as NodeJS.ErrnoException).code ?? reason(error)})`;
  }
}

/** The TLS pair: both readable, a certificate and a private key, the key the certificate's. */
function tlsProblems(certFile: string, keyFile: string, certLabel: string, keyLabel: string): string[] {
  let cert: X509Certificate | undefined;
  let key: ReturnType<typeof createPrivateKey> | undefined;
  const problems: string[] = [];
  try {
    cert = new X509Certificate(fs.readFileSync(certFile));
  } catch (error) {
    problems.push(`${certLabel}: ${certFile} is not a readable PEM certificate (${(error as NodeJS.ErrnoException).code ?? reason(error)})`);
  }
  try {
    key = createPrivateKey(fs.readFileSync(keyFile));
  } catch (error) {
    problems.push(`${keyLabel}: ${keyFile} is not a readable PEM private key (${(error as NodeJS.ErrnoException).code ?? reason(error)})`);
  }
  if (cert && key && !cert.checkPrivateKey(key)) problems.push(`${keyLabel}: ${keyFile} is not the private key of the certificate ${certFile}`);
  return problems;
}

function tlsCheck(config: Config): string[] {
  if (config.plainHttp) return [];
  if (config.tlsCertFile && config.tlsKeyFile) return tlsProblems(config.tlsCertFile, config.tlsKeyFile, 'TLS_CERT_FILE', 'TLS_KEY_FILE');
  // The self-signed pair of the data directory, when a previous start made it.
  const certFile = path.join(config.dataDir, 'tls', 'cert.pem');
  const keyFile = path.join(config.dataDir, 'tls', 'key.pem');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) return [];
  return tlsProblems(certFile, keyFile, 'GATEHOUSE_DATA_DIR', 'GATEHOUSE_DATA_DIR');
}

async function databaseAndKeyCheck(config: Config): Promise<string[]> {
  const variable = config.databaseUrl ? 'DATABASE_URL' : 'GATEHOUSE_DATA_DIR';
  const where = config.databaseUrl ? 'the PostgreSQL database' : `the SQLite database ${config.sqliteFile}`;
  let key: Buffer | undefined;
  try {
    key = existingMasterKey(config.masterKey, config.dataDir);
  } catch (error) {
    return [reason(error)];
  }
  let probe;
  try {
    probe = await probeDatabase(config);
  } catch (error) {
    return [`${variable}: ${where} is unreachable (${(error as NodeJS.ErrnoException).code ?? reason(error)})`];
  }
  if (!probe.sample) return [];
  const source = masterKeySource(config.masterKey, config.dataDir);
  if (!key) {
    return [`${source}: ${where} holds sealed secrets but there is no master key; set GATEHOUSE_MASTER_KEY or restore ${source}`];
  }
  try {
    const { kind, tenantId, id, sealed } = probe.sample;
    if (kind === 'client_secret') new SecretBox(key).open(sealed, clientSecretContext(tenantId, id));
    else new SecretBox(key).unwrapUnderRoot(sealed, wrapContext(tenantId, kind, id));
    return [];
  } catch {
    return [`${source}: the master key does not open the secrets sealed in ${where} (a different key than the one they were sealed with)`];
  }
}

/** Runs every check; throws StartupCheckError listing the failures. */
export async function preflight(config: Config): Promise<void> {
  const failures: string[] = [];
  const portHost = config.host;
  const portFailure = await portProblem('PORT', portHost, config.port);
  if (portFailure) failures.push(portFailure);
  if (config.metrics.port !== undefined) {
    const metricsFailure = await portProblem('GATEHOUSE_METRICS_PORT', '127.0.0.1', config.metrics.port);
    if (metricsFailure) failures.push(metricsFailure);
  }
  failures.push(...tlsCheck(config));
  // The MaxMind databases are opened as the context will open them (each is read whole, then dropped).
  await openGeoDatabases(config.geoip).catch((error: unknown) => failures.push(reason(error)));
  const dataDir = directoryProblem('GATEHOUSE_DATA_DIR', config.dataDir);
  if (dataDir) failures.push(dataDir);
  if (!config.databaseUrl && path.dirname(config.sqliteFile) !== config.dataDir) {
    const sqliteDir = directoryProblem('DATABASE_URL', path.dirname(config.sqliteFile));
    if (sqliteDir) failures.push(sqliteDir);
  }
  // The database is opened only when the data directory is usable (an SQLite file inside it).
  if (!dataDir) failures.push(...(await databaseAndKeyCheck(config)));
  if (failures.length) throw new StartupCheckError(failures);
}
