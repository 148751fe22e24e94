/**
 * Memory of the built server under client_credentials load (the 3-scope API of `npm run bench`):
 * whether anything is retained per request. The server runs with `--expose-gc` and
 * bench/memory-probe.mjs preloaded; after a warm-up and after each of BENCH_MEMORY_PHASES phases of
 * BENCH_MEMORY_REQUESTS token requests (autocannon, BENCH_CONNECTIONS connections), the server idles
 * 3 s, runs two full garbage collections and reports its live JS heap, V8's spaces and RSS. A leak
 * shows as a live heap that grows with every phase; a cache filling shows as growth that stops.
 * Without the forced collections the old generation holds the garbage of many requests until V8's
 * next mark-compact, so RSS read under or just after load (as `npm run bench` does) is higher than
 * what is live.
 *
 *   npm run build --silent && node --import tsx bench/memory.ts
 *   BENCH_TENANT_LOGS=off …   (the same with GATEHOUSE_TENANT_LOGS=off)
 *   BENCH_MEMORY_GC=0 …       (no forced collections: the heap in use as a reading without one sees it)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  envSeconds,
  loadSettings,
  log,
  measure,
  readMemory,
  removeOnCleanup,
  ROOT,
  runMain,
  setUpPinning,
  sleep,
  startTypicalGatehouse,
  stopChild,
} from './lib.js';

const SETTINGS = loadSettings({ duration: 20, connections: 50 });
const PHASES = Math.round(envSeconds('BENCH_MEMORY_PHASES', 4, 1, 100));
const TENANT_LOGS = process.env.BENCH_TENANT_LOGS?.trim() || 'on';

interface ProbeLine {
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  spacesMiB: Record<string, number>;
  handles: number;
}

async function main(): Promise<number> {
  const pinning = setUpPinning();
  const memoryLog = path.join(os.tmpdir(), `gatehouse-bench-memory-${process.pid}.jsonl`);
  removeOnCleanup(memoryLog);
  const { gatehouse, typical } = await startTypicalGatehouse({
    dataDirPrefix: 'gatehouse-bench-memory-',
    pinning,
    nodeArgs: ['--expose-gc', '--import', path.join(ROOT, 'bench', 'memory-probe.mjs')],
    extraEnv: { GATEHOUSE_TENANT_LOGS: TENANT_LOGS, BENCH_MEMORY_LOG: memoryLog },
  });
  const pid = gatehouse.child.process.pid!;
  const loadCase = { name: 'client_credentials', method: 'POST', path: '/oauth/token', body: typical.tokenBody, endpoint: gatehouse.endpoint, server: gatehouse.child } as const;

  const probe = async (): Promise<ProbeLine> => {
    await sleep(3_000);
    const before = fs.existsSync(memoryLog) ? fs.readFileSync(memoryLog, 'utf8').length : 0;
    process.kill(pid, 'SIGWINCH');
    for (let i = 0; i < 100; i++) {
      await sleep(100);
      const text = fs.existsSync(memoryLog) ? fs.readFileSync(memoryLog, 'utf8') : '';
      if (text.length > before && text.endsWith('\n')) return JSON.parse(text.slice(before).trim()) as ProbeLine;
    }
    throw new Error('the server wrote no memory reading (was bench/memory-probe.mjs preloaded?)');
  };
  const row = (label: string, requests: number, p: ProbeLine) =>
    log(
      `${label.padEnd(10)} ${String(requests).padStart(9)}  heap used ${p.heapUsedMiB.toFixed(1).padStart(6)} MiB  old space ${String(p.spacesMiB.old_space ?? NaN).padStart(6)} MiB  external ${p.externalMiB.toFixed(1).padStart(5)} MiB  RSS ${p.rssMiB.toFixed(1).padStart(6)} MiB  handles ${p.handles}`,
    );

  log(`client_credentials, ${SETTINGS.connections} connections, tenant logs ${TENANT_LOGS}${process.env.BENCH_MEMORY_GC === '0' ? ', NO forced collections (BENCH_MEMORY_GC=0)' : ''}; ${pinning.note}`);
  log(`after      requests`);
  let requests = 0;
  const warm = await measure(loadCase, { ...SETTINGS, duration: Math.max(1, SETTINGS.warmup), warmup: 0 }, 'warm-up');
  requests += warm.responses;
  const first = await probe();
  row('warm-up', requests, first);
  let last = first;
  for (let phase = 1; phase <= PHASES; phase++) {
    const result = await measure(loadCase, { ...SETTINGS, warmup: 0 }, `phase ${phase}`);
    requests += result.responses;
    if (result.non2xx + result.errors > 0) log(`phase ${phase}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    last = await probe();
    row(`phase ${phase}`, requests, last);
  }
  const perRequest = ((last.heapUsedMiB - first.heapUsedMiB) * 1024 * 1024) / Math.max(1, requests - warm.responses);
  log(`heap used change since the warm-up: ${(last.heapUsedMiB - first.heapUsedMiB).toFixed(1)} MiB (${perRequest.toFixed(1)} bytes per request); RSS now ${readMemory(pid)?.rssMB.toFixed(1)} MiB`);
  await stopChild(gatehouse.child);
  return 0;
}

await runMain(main);
