/**
 * A local npm registry stand-in for Actions' build step: serves the
 * packuments and tarballs of packages made on the fly (each a `package/`
 * folder packed with tar), over plain HTTP on a loopback port, as
 * GATEHOUSE_ACTIONS_REGISTRY may name one (an operator's mirror). Any other
 * package is answered 404, as a registry does.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { tempDir } from './app.js';

export interface LocalPackage {
  name: string;
  version: string;
  /** Files of the package besides package.json. */
  files: Record<string, string>;
  /** Members added to its package.json (e.g. `scripts`). */
  manifest?: Record<string, unknown>;
}

export class LocalRegistry {
  url = '';
  readonly requests: string[] = [];
  #server: http.Server | undefined;
  readonly #tarballs = new Map<string, Buffer>();
  readonly #packuments = new Map<string, Record<string, unknown>>();
  readonly #dir = tempDir('gatehouse-registry-');

  /** Packs and publishes a package (call after `up`, which sets the URL its tarball is served at). */
  publish(pkg: LocalPackage): void {
    const root = path.join(this.#dir, `${pkg.name}-${pkg.version}`);
    const folder = path.join(root, 'package');
    fs.mkdirSync(folder, { recursive: true });
    const manifest = { name: pkg.name, version: pkg.version, main: 'index.js', ...pkg.manifest };
    fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest));
    for (const [file, content] of Object.entries(pkg.files)) fs.writeFileSync(path.join(folder, file), content);
    const tgz = path.join(root, 'package.tgz');
    const packed = spawnSync('tar', ['-czf', tgz, '-C', root, 'package']);
    if (packed.status !== 0) throw new Error(`tar failed: ${packed.stderr}`);
    const tarball = fs.readFileSync(tgz);
    const file = `${pkg.name}-${pkg.version}.tgz`;
    this.#tarballs.set(`/${pkg.name}/-/${file}`, tarball);
    const packument = this.#packuments.get(pkg.name) ?? { name: pkg.name, 'dist-tags': {}, versions: {} };
    (packument['dist-tags'] as Record<string, string>).latest = pkg.version;
    (packument.versions as Record<string, unknown>)[pkg.version] = {
      ...manifest,
      dist: {
        tarball: `${this.url}${pkg.name}/-/${file}`,
        shasum: createHash('sha1').update(tarball).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      },
    };
    this.#packuments.set(pkg.name, packument);
  }

  async up(): Promise<void> {
    this.#server = http.createServer((req, res) => {
      const url = decodeURIComponent((req.url ?? '/').split('?')[0]!);
      this.requests.push(url);
      const tarball = this.#tarballs.get(url);
      if (tarball) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      const packument = this.#packuments.get(url.slice(1));
      if (packument) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument));
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/`;
  }

  async down(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    fs.rmSync(this.#dir, { recursive: true, force: true });
  }
}
