/** Wall times of repeated runs: warm-ups first (not kept), then `repeats` timed runs. */
export interface Timings {
  /** Milliseconds of each timed run, in run order. */
  runsMs: number[];
  medianMs: number;
}

export async function timeRuns(
  options: { warmUps: number; repeats: number; before?: () => Promise<void> },
  work: () => Promise<unknown>,
): Promise<Timings> {
  for (let i = 0; i < options.warmUps; i += 1) {
    await options.before?.();
    await work();
  }
  const runsMs: number[] = [];
  for (let i = 0; i < options.repeats; i += 1) {
    await options.before?.();
    const started = performance.now();
    await work();
    runsMs.push(performance.now() - started);
  }
  return { runsMs, medianMs: median(runsMs) };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const millis = (ms: number): string => (ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`);
export const ratio = (value: number): string => value.toFixed(2);
