/** How often the dashboard asks again while some orders' profit is still being calculated (after a sync or a match). */
export const FIGURES_POLL_MS = 3_000;
/**
 * The longest gap between asks. A profit run that keeps failing leaves orders "still being
 * calculated" until a retry or the nightly resync succeeds; an open Dashboard then costs one
 * request a minute, not twenty.
 */
export const FIGURES_POLL_MAX_MS = 60_000;

export interface FiguresPollState {
  /** Orders still being calculated in the last answer. */
  waiting: number;
  /** Answers in a row that showed no progress (the same count, or more). */
  unchanged: number;
}

export const FIGURES_POLL_IDLE: FiguresPollState = { waiting: 0, unchanged: 0 };

/**
 * The gap before the next ask, given the latest answer's count: none once no order waits;
 * 3 s while the count falls; doubled for each answer in a row that shows no progress, up to
 * a minute. Any progress goes back to 3 s.
 */
export function nextFiguresPoll(
  state: FiguresPollState,
  waitingNow: number,
): { state: FiguresPollState; intervalMs: number } {
  if (waitingNow <= 0) return { state: FIGURES_POLL_IDLE, intervalMs: 0 };
  const progressed = state.waiting === 0 || waitingNow < state.waiting;
  const unchanged = progressed ? 0 : state.unchanged + 1;
  return {
    state: { waiting: waitingNow, unchanged },
    intervalMs: Math.min(FIGURES_POLL_MS * 2 ** unchanged, FIGURES_POLL_MAX_MS),
  };
}
