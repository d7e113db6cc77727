/**
 * A run's total pages for its progress bar, from the stream it walks now. A stream's estimate
 * covers only itself, and the run's later streams say nothing until they start: an Etsy run's
 * receipts reached 99% and its ledger, several times longer, then had nowhere to go. Each of the
 * run's `streamCount` streams is given an equal share of the bar, so the share done is
 * (streams before + the fraction of this one) ÷ streams, and the total is the pages done so far
 * extrapolated to that share. recordPage still never lets the bar go back (ADR 0029).
 */
export function runPagesEstimate(input: {
  /** The run's pages committed, this page included. */
  runPagesDone: number;
  /** Pages of this stream committed in this job, this page included. */
  streamPagesDone: number;
  /** The stream's own estimate of its pages in all; null when it gives none. */
  streamExpectedPages: number | null;
  streamIndex: number;
  streamCount: number;
}): number | null {
  const { runPagesDone, streamPagesDone, streamExpectedPages, streamIndex, streamCount } = input;
  if (streamExpectedPages === null || streamExpectedPages <= 0 || streamCount <= 0) return null;
  const streamFraction = Math.min(1, streamPagesDone / streamExpectedPages);
  const shareDone = (streamIndex + streamFraction) / streamCount;
  return Math.max(runPagesDone, Math.ceil(runPagesDone / shareDone));
}
