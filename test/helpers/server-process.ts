/**
 * The built server as its own process, started the way `npm start` does
 * (bin/gatehouse.cjs), for black-box tests over real HTTPS. `npm test` builds
 * dist/ before running the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { AdminCredentials } from '../../src/app/context.js';
import { tempDir } from './app.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  domain: string;
  baseUrl: string;
  dataDir: string;
  certFile: string;
  output(): string;
  admin(): AdminCredentials;
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  dataDir?: string;
  port?: number;
  env?: Record<string, string>;
  /** The launcher to run (default: this checkout's bin/gatehouse.cjs; another version's for upgrade tests). */
  bin?: string;
  /** How long to wait for the server to listen (default 90 s: the first start makes the tenant, its TLS certificate and two RSA signing keys, on machines that may be busy). */
  timeoutMs?: number;
}

export async function startServerProcess(options: StartOptions = {}): Promise<ServerProcess> {
  // A port found free can be taken by another process before the server binds it: with a port and a
  // data directory of its own choosing (the tenant's domain names the port), the start is tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      const retry = options.port === undefined && options.dataDir === undefined && attempt < 3 && error instanceof Error && error.message.includes('EADDRINUSE');
      if (!retry) throw error;
    }
  }
}

async function startOnce(options: StartOptions): Promise<ServerProcess> {
  const dataDir = options.dataDir ?? tempDir('gatehouse-e2e-');
  const port = options.port ?? (await freePort());
  const domain = `localhost:${port}`;
  const bin = options.bin ?? path.join(ROOT, 'bin/gatehouse.cjs');
  const child = spawn(process.execPath, [bin], {
    cwd: path.dirname(path.dirname(bin)),
    // The black-box tests build the connections they need; test/e2e/first-run.test.ts starts with the default one.
    env: { ...process.env, PORT: String(port), GATEHOUSE_DATA_DIR: dataDir, LOG_LEVEL: 'info', GATEHOUSE_DEFAULT_CONNECTION: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, options.timeoutMs ?? 90_000);
    const check = () => {
      if (output.includes('Gatehouse is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    child,
    port,
    domain,
    baseUrl: `https://${domain}`,
    dataDir,
    certFile: path.join(dataDir, 'tls', 'cert.pem'),
    output: () => output,
    admin: () => JSON.parse(fs.readFileSync(path.join(dataDir, 'admin-credentials.json'), 'utf8')) as AdminCredentials,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
  };
}
