import { formatTable } from '../support/table';
import { errorCount } from './report';
import type { LoadStack } from './load-stack';
import { runCannon } from './run-cannon';
import { memoryGrowth, sampleMemory, type MemorySample } from './soak';

const FIVE_MINUTES_MS = 5 * 60_000;
/** Growth of the mean over the last window against the first that still counts as flat (GC and caches filling). */
const FLAT_GROWTH = 0.1;

const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1048576).toFixed(1)} MB` : '-');
const growth = (first: number, last: number) =>
  Number.isFinite(first) && first > 0 ? `${(((last - first) / first) * 100).toFixed(1)} %` : '-';

/**
 * The soak: every page's calls mixed on the same connections for `minutes`, while every
 * process's RSS and heap are sampled (every 30 s; more often on a short soak); then each
 * process's mean over the first and the last 5 minutes.
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
    }
  })();
  const result = await runCannon({ baseUrl: stack.baseUrl, paths, cookies, connections, seconds }).finally(() => {
    sampling = false;
  });
  await sampler;
  samples.push(await sampleMemory(stack.processes, started));
  const span = samples.length ? samples[samples.length - 1].atMs : 0;
  const window = span >= 5 * FIVE_MINUTES_MS ? 'first vs last 5 min' : 'first vs last fifth of the soak';
  const rows = memoryGrowth(samples, FIVE_MINUTES_MS).map((g) => {
    const flat = !(g.lastRss > g.firstRss * (1 + FLAT_GROWTH)) && !(g.lastHeap > g.firstHeap * (1 + FLAT_GROWTH));
    return [
      g.name,
      mb(g.firstRss),
      mb(g.lastRss),
      growth(g.firstRss, g.lastRss),
      mb(g.firstHeap),
      mb(g.lastHeap),
      growth(g.firstHeap, g.lastHeap),
      flat ? 'flat' : 'GROWS',
    ];
  });
  log(
    `Soak load: ${(result.requests / result.seconds).toFixed(0)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${errorCount(result)} errors ` +
      `(${Object.entries(result.statusCodes)
        .map(([code, n]) => `${n}×${code}`)
        .join(', ')}); ${samples.length} memory samples`,
  );
  log(
    `\n${formatTable([`Process (mean of ${window})`, 'RSS first', 'RSS last', 'RSS growth', 'Heap first', 'Heap last', 'Heap growth', `≤ ${FLAT_GROWTH * 100} %`], rows)}\n`,
  );
}
