import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatTable } from '../support/table';
import { errorCount } from './report';
import type { LoadStack } from './load-stack';
import { runCannon } from './run-cannon';
import { memoryGrowth, memorySeries, sampleMemory, type MemorySample } from './soak';

const FIVE_MINUTES_MS = 5 * 60_000;
/**
 * Growth of live memory (after a full GC) from the first window's mean to the last's that still
 * counts as flat: caches filling to their bounds and measurement noise, not a leak.
 */
const FLAT_GROWTH = 0.1;

const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(1)} MB` : '-');
const growth = (first: number, last: number) =>
  Number.isFinite(first) && first > 0 ? `${(((last - first) / first) * 100).toFixed(1)} %` : '-';

/**
 * The soak: every page's calls mixed on the same connections for `minutes`, while every
 * process's RSS, heap and live memory are sampled (every 30 s; more often on a short soak); then
 * each process's mean over the first and the last 5 minutes. Growth is judged on live memory
 * (heap used plus external after a full GC): RSS and the heap between collections also follow
 * the heap size V8 chooses for the allocation rate, which grows for minutes and then levels off
 * without any leak (docs/adr/0022-load-bench.md). With BENCH_LOAD_SNAPSHOT_DIR each process
 * writes a heap snapshot after the first sample and at the end, for DevTools' comparison view.
 */
export async function runSoak(
  stack: LoadStack,
  cookies: string[],
  paths: string[],
  minutes: number,
  connections: number,
  log: (line: string) => void,
): Promise<void> {
  const seconds = Math.round(minutes * 60);
  const everyMs = Math.min(30_000, Math.max(2_000, (seconds * 1000) / 60));
  log(
    `Soak: every page's calls mixed, ${connections} connections for ${minutes} min, memory sampled every ${everyMs / 1000} s…`,
  );
  const started = performance.now();
  // Samples start once the load runs: the idle process before it is not what is compared.
  const samples: MemorySample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((done) => setTimeout(done, everyMs));
      if (sampling) samples.push(await sampleMemory(stack.processes, started));
      if (sampling && samples.length === 1) await snapshots(stack, 'first', log);
    }
  })();
  const result = await runCannon({ baseUrl: stack.baseUrl, paths, cookies, connections, seconds }).finally(() => {
    sampling = false;
  });
  await sampler;
  samples.push(await sampleMemory(stack.processes, started));
  await snapshots(stack, 'last', log);
  const span = samples.length ? samples[samples.length - 1].atMs : 0;
  const window = span >= 5 * FIVE_MINUTES_MS ? 'first vs last 5 min' : 'first vs last fifth of the soak';
  const rows = memoryGrowth(samples, FIVE_MINUTES_MS).map(({ name, first, last }) => [
    name,
    `${mb(first.rss)} → ${mb(last.rss)}`,
    growth(first.rss, last.rss),
    `${mb(first.heap)} → ${mb(last.heap)}`,
    growth(first.heap, last.heap),
    `${mb(first.live)} → ${mb(last.live)}`,
    growth(first.live, last.live),
    liveVerdict(first.live, last.live),
  ]);
  log(
    `Soak load: ${(result.requests / result.seconds).toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${errorCount(result)} errors ` +
      `(${Object.entries(result.statusCodes)
        .map(([code, n]) => `${n}×${code}`)
        .join(', ')}); ${samples.length} memory samples`,
  );
  log(
    `\n${formatTable([`Process (mean of ${window})`, 'RSS', 'RSS growth', 'Heap (between GCs)', 'Heap growth', 'Live after GC', 'Live growth', `Live ≤ +${FLAT_GROWTH * 100} %`], rows)}\n`,
  );
  const sixths = (series: number[]) => series.map((bytes) => (bytes / 1048576).toFixed(0)).join(' / ');
  log(
    `${formatTable(
      ['Process: MB in each sixth of the soak', 'RSS', 'Heap (between GCs)', 'Live after GC'],
      memorySeries(samples, 6).map(({ name, series }) => [
        name,
        sixths(series.map((r) => r.rss)),
        sixths(series.map((r) => r.heap)),
        sixths(series.map((r) => r.live)),
      ]),
    )}\n`,
  );
}

/** The verdict on live memory: a leak grows what survives a full collection. */
export function liveVerdict(first: number, last: number): 'flat' | 'GROWS' | 'not measured' {
  if (!Number.isFinite(first) || !Number.isFinite(last)) return 'not measured';
  return last > first * (1 + FLAT_GROWTH) ? 'GROWS' : 'flat';
}

async function snapshots(stack: LoadStack, label: string, log: (line: string) => void): Promise<void> {
  const dir = process.env.BENCH_LOAD_SNAPSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const { name, probe } of stack.processes) {
    const file = await probe.snapshot(resolve(dir, `${name}-${label}.heapsnapshot`));
    log(`  heap snapshot of ${name}: ${file ?? 'not written'}`);
  }
}
