/// <reference types="jest" />
import {
  FIGURES_POLL_IDLE,
  FIGURES_POLL_MAX_MS,
  FIGURES_POLL_MS,
  nextFiguresPoll,
  type FiguresPollState,
} from './figuresPolling';

/** The gaps a Dashboard would wait after each answer, given the counts those answers carry. */
function gapsFor(counts: number[]): number[] {
  let state: FiguresPollState = FIGURES_POLL_IDLE;
  return counts.map((count) => {
    const next = nextFiguresPoll(state, count);
    state = next.state;
    return next.intervalMs;
  });
}

describe('Dashboard polling while profit is being calculated', () => {
  it('does not poll when no order waits', () => {
    expect(gapsFor([0, 0])).toEqual([0, 0]);
  });

  it('asks every 3 s while the count falls', () => {
    expect(gapsFor([120, 80, 10, 1, 0])).toEqual([3_000, 3_000, 3_000, 3_000, 0]);
  });

  it('doubles the gap for each answer without progress, up to a minute, and never stops while orders wait', () => {
    const gaps = gapsFor(Array.from({ length: 12 }, () => 40));
    expect(gaps.slice(0, 6)).toEqual([3_000, 6_000, 12_000, 24_000, 48_000, 60_000]);
    expect(gaps.slice(6).every((gap) => gap === FIGURES_POLL_MAX_MS)).toBe(true);
  });

  it('counts a growing count (a new sync) as no progress, and goes back to 3 s on progress', () => {
    expect(gapsFor([10, 10, 12, 12, 11])).toEqual([3_000, 6_000, 12_000, 24_000, FIGURES_POLL_MS]);
  });

  it('starts afresh after the orders were all calculated', () => {
    expect(gapsFor([5, 5, 5, 0, 5])).toEqual([3_000, 6_000, 12_000, 0, 3_000]);
  });
});
