import { runPagesEstimate } from './run-page-estimate';

const share = (runPagesDone: number, estimate: number | null) => (estimate === null ? null : runPagesDone / estimate);

describe('runPagesEstimate', () => {
  it('gives each stream an equal share of the bar: the receipts end at half, the ledger starts after it', () => {
    // Etsy: receipts (8 pages), then the ledger (40 pages).
    expect(
      share(
        4,
        runPagesEstimate({
          runPagesDone: 4,
          streamPagesDone: 4,
          streamExpectedPages: 8,
          streamIndex: 0,
          streamCount: 2,
        }),
      ),
    ).toBeCloseTo(0.25, 2);
    expect(
      share(
        8,
        runPagesEstimate({
          runPagesDone: 8,
          streamPagesDone: 8,
          streamExpectedPages: 8,
          streamIndex: 0,
          streamCount: 2,
        }),
      ),
    ).toBe(0.5);
    const ledgerStart = share(
      9,
      runPagesEstimate({
        runPagesDone: 9,
        streamPagesDone: 1,
        streamExpectedPages: 40,
        streamIndex: 1,
        streamCount: 2,
      }),
    );
    expect(ledgerStart).toBeGreaterThanOrEqual(0.5);
    expect(ledgerStart).toBeLessThan(0.52);
    expect(
      share(
        48,
        runPagesEstimate({
          runPagesDone: 48,
          streamPagesDone: 40,
          streamExpectedPages: 40,
          streamIndex: 1,
          streamCount: 2,
        }),
      ),
    ).toBe(1);
  });

  it('knows nothing without the stream’s estimate', () => {
    expect(
      runPagesEstimate({
        runPagesDone: 3,
        streamPagesDone: 3,
        streamExpectedPages: null,
        streamIndex: 0,
        streamCount: 1,
      }),
    ).toBeNull();
  });
});
