/**
 * A CPU profile of POST /oauth/token (client_credentials, the 3-scope API)
 * under load, for finding per-request overhead (`--cpu-prof`): the server
 * pinned to one core as in `npm run bench`, the profile written to
 * BENCH_PROFILE_DIR (default bench/results/) when the server stops, and its
 * heaviest functions by self time printed.
 *
 *   npm run build --silent && node --import tsx bench/profile-token.ts
 *   BENCH_TENANT_LOGS=off …   (the same with GATEHOUSE_TENANT_LOGS=off, to compare)
 *   BENCH_PROFILE_GET=/.well-known/jwks.json …   (GET that path instead of the token request)
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  loadSettings,
  log,
  measure,
  ROOT,
  runMain,
  setUpPinning,
  startTypicalGatehouse,
  stopChild,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 8, connections: 50 });
const DIR = path.resolve(process.env.BENCH_PROFILE_DIR ?? path.join(ROOT, 'bench', 'results'));

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  fs.mkdirSync(DIR, { recursive: true });
  const before = new Set(fs.readdirSync(DIR));
  const { gatehouse, typical } = await startTypicalGatehouse({
    dataDirPrefix: 'gatehouse-bench-profile-',
    pinning,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${DIR}`],
    extraEnv: { GATEHOUSE_TENANT_LOGS: process.env.BENCH_TENANT_LOGS?.trim() || 'on' },
  });
  const get = process.env.BENCH_PROFILE_GET?.trim();
  const result = await measure(
    get
      ? { name: `GET ${get}`, method: 'GET', path: get, endpoint: gatehouse.endpoint, server: gatehouse.child }
      : { name: 'client_credentials', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: gatehouse.endpoint, server: gatehouse.child },
    SETTINGS,
    `profiled ${get ? `GET ${get}` : 'client_credentials'}`,
  );
  log(`${Math.round(result.reqPerSec)} ${get ? 'responses' : 'tokens'}/s under the profiler (${pinning.note})`);
  await stopChild(gatehouse.child);
  const file = fs.readdirSync(DIR).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
  if (!file) throw new Error('no profile was written');
  const profile = JSON.parse(fs.readFileSync(path.join(DIR, file), 'utf8')) as { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const f = node.callFrame;
    const where = f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/');
    const key = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  log(`\nprofile: ${path.join(DIR, file)}\nheaviest functions by self time (% of the profile):`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) log(`  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
  return 0;
}

await runMain(main);
