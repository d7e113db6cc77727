import { readFileSync } from 'node:fs';
import type { StackProcess } from './load-stack';

export interface MemorySample {
  atMs: number;
  /** Per process name: resident set size and V8 heap used, in bytes (heap NaN when not exported). */
  byProcess: Record<string, { rss: number; heap: number }>;
}

/** A process's resident set size from /proc (Linux), in bytes. */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
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
  for (const process of processes) byProcess[process.name] = { rss: rssOf(process.pid), heap: await heapOf(process) };
  return { atMs: performance.now() - startedAt, byProcess };
}

export interface MemoryGrowth {
  name: string;
  firstRss: number;
  lastRss: number;
  firstHeap: number;
  lastHeap: number;
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
  const mean = (of: readonly MemorySample[], name: string, key: 'rss' | 'heap') =>
    of.reduce((sum, s) => sum + s.byProcess[name][key], 0) / of.length;
  return Object.keys(samples[0].byProcess).map((name) => ({
    name,
    firstRss: mean(first, name, 'rss'),
    lastRss: mean(last, name, 'rss'),
    firstHeap: mean(first, name, 'heap'),
    lastHeap: mean(last, name, 'heap'),
  }));
}
