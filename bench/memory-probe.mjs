// Preloaded into the Gatehouse process by bench/memory.ts (`--expose-gc --import`): on SIGWINCH it
// runs two full garbage collections and appends one JSON line with what is then live (the JS heap,
// V8's spaces, external memory, RSS) to the file named by BENCH_MEMORY_LOG. BENCH_MEMORY_GC=0 skips the
// collections: the line then shows what a reading without one sees (the old generation's garbage).
import fs from 'node:fs';
import v8 from 'node:v8';

const MiB = 1024 * 1024;
const round = (bytes) => Math.round((bytes / MiB) * 10) / 10;

process.on('SIGWINCH', () => {
  if (process.env.BENCH_MEMORY_GC !== '0') {
    globalThis.gc?.();
    globalThis.gc?.();
  }
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, round(s.space_size)]));
  const line = { rssMiB: round(m.rss), heapUsedMiB: round(m.heapUsed), heapTotalMiB: round(m.heapTotal), externalMiB: round(m.external), spacesMiB: spaces, handles: process._getActiveHandles().length };
  fs.appendFileSync(process.env.BENCH_MEMORY_LOG, `${JSON.stringify(line)}\n`);
});
