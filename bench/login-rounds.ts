/**
 * Kinds of login measured side by side against one server (bench/federation.ts,
 * bench/passkeys.ts): for `rounds` rounds the kinds alternate, each for
 * `durationS` seconds with `connections` workers logging in again and again;
 * each kind's logins per second and the server's CPU milliseconds per login
 * (from /proc/{pid}/stat, utime + stime), the medians of the rounds.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { repin, setUpPinning } from './lib.js';

const TICKS = 100; // USER_HZ

function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function loginRounds<K extends string>(
  pid: number,
  logins: Record<K, (worker: number) => Promise<void>>,
  settings: { rounds: number; durationS: number; connections: number },
): Promise<Record<K, { rate: number; cpu: number }>> {
  const kinds = Object.keys(logins) as K[];
  const results = new Map(kinds.map((kind) => [kind, { perSecond: [] as number[], cpuPerLogin: [] as number[] }]));
  for (let round = 0; round < settings.rounds; round++) {
    for (const kind of kinds) {
      const cpuBefore = cpuMs(pid);
      const end = performance.now() + settings.durationS * 1000;
      let count = 0;
      await Promise.all(
        Array.from({ length: settings.connections }, async (_, worker) => {
          while (performance.now() < end) {
            await logins[kind](worker);
            if (performance.now() <= end) count++;
          }
        }),
      );
      const cpu = cpuMs(pid) - cpuBefore;
      results.get(kind)!.perSecond.push(count / settings.durationS);
      results.get(kind)!.cpuPerLogin.push(cpu / Math.max(1, count));
    }
  }
  return Object.fromEntries(kinds.map((kind) => [kind, { rate: median(results.get(kind)!.perSecond), cpu: median(results.get(kind)!.cpuPerLogin) }])) as Record<K, { rate: number; cpu: number }>;
}

/**
 * The server under test (every thread) on one core, this process (the browsers, the load) on the
 * other, as the other benches run (bench/lib.ts setUpPinning); the line saying how, for the output.
 */
export function pinServer(pid: number): string {
  const pinning = setUpPinning();
  if (pinning.pinned) repin(pid, pinning.serverCpus!);
  return pinning.note;
}
