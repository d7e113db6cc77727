import { readFileSync } from 'node:fs';
import type { StackProcess } from './load-stack';

export interface MemorySample {
  atMs: number;
  /**
   * Per process name, in bytes: resident set size; V8 heap used as the process's metrics report it
   * (garbage included: it depends on when V8 last collected; NaN when not exported); and live
   * memory, heap used plus external right after a full garbage collection (NaN without the probe).
   */
  byProcess: Record<string, MemoryReading>;
}

export interface MemoryReading {
  rss: number;
  heap: number;
  live: number;
}

/** A process's resident set size from /proc (Linux), in bytes. */
function rssOf(pid: number): number {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return NaN; // the process is gone: the soak reports it rather than crashing
  }
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb ? Number(kb) * 1024 : NaN;
}

/** V8's used heap from the process's Prometheus text (prom-client's nodejs_heap_size_used_bytes). */
async function heapOf(process: StackProcess): Promise<number> {
  try {
    const response = await fetch(process.metricsUrl, {
      headers: process.metricsToken ? { authorization: `Bearer ${process.metricsToken}` } : {},
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    const value = /^\S*nodejs_heap_size_used_bytes(?:\{[^}]*\})?\s+(\S+)/m.exec(text)?.[1];
    return value ? Number(value) : NaN;
  } catch {
    return NaN;
  }
}

export async function sampleMemory(processes: readonly StackProcess[], startedAt: number): Promise<MemorySample> {
  const byProcess: MemorySample['byProcess'] = {};
  for (const process of processes) {
    const heap = await heapOf(process);
    const live = await process.probe.live();
    byProcess[process.name] = { rss: rssOf(process.pid), heap, live: live.heapUsed + live.external };
  }
  return { atMs: performance.now() - startedAt, byProcess };
}

export interface MemoryGrowth {
  name: string;
  first: MemoryReading;
  last: MemoryReading;
}

/**
 * Mean RSS and heap of each process over the first and the last `windowMs` of the soak (the
 * first and last fifth when the soak is shorter than five windows): growth between the two is
 * what a leak would show, while a single sample would catch a garbage collection mid-way.
 */
export function memoryGrowth(samples: readonly MemorySample[], windowMs: number): MemoryGrowth[] {
  if (samples.length === 0) return [];
  const span = samples.at(-1)!.atMs;
  const window = span >= 5 * windowMs ? windowMs : span / 5;
  const first = samples.filter((s) => s.atMs <= window);
  const last = samples.filter((s) => s.atMs >= span - window);
  const mean = (of: readonly MemorySample[], name: string, key: keyof MemoryReading) =>
    of.reduce((sum, s) => sum + s.byProcess[name][key], 0) / of.length;
  const means = (of: readonly MemorySample[], name: string): MemoryReading => ({
    rss: mean(of, name, 'rss'),
    heap: mean(of, name, 'heap'),
    live: mean(of, name, 'live'),
  });
  return Object.keys(samples[0].byProcess).map((name) => ({
    name,
    first: means(first, name),
    last: means(last, name),
  }));
}

/**
 * Each process's mean readings over `parts` equal stretches of the soak, oldest first: whether a
 * growth levels off (V8 sizing its heap, caches reaching their bounds) or keeps on (a leak).
 */
export function memorySeries(
  samples: readonly MemorySample[],
  parts: number,
): Array<{ name: string; series: MemoryReading[] }> {
  if (samples.length === 0) return [];
  const span = samples.at(-1)!.atMs;
  const stretches = Array.from({ length: parts }, (_, part) =>
    samples.filter(
      (s) =>
        s.atMs >= (span * part) / parts && (part === parts - 1 ? s.atMs <= span : s.atMs < (span * (part + 1)) / parts),
    ),
  );
  const mean = (of: readonly MemorySample[], name: string, key: keyof MemoryReading) =>
    of.length ? of.reduce((sum, s) => sum + s.byProcess[name][key], 0) / of.length : NaN;
  return Object.keys(samples[0].byProcess).map((name) => ({
    name,
    series: stretches.map((of) => ({
      rss: mean(of, name, 'rss'),
      heap: mean(of, name, 'heap'),
      live: mean(of, name, 'live'),
    })),
  }));
}
