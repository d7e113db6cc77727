import { DEFAULT_REPORT_WINDOW_DAYS, REPORT_WINDOW_DAYS, reportWindowLabel } from '@pod/domain';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REPORT_RANGE_DAYS, REPORT_RANGES } from './ReportRangeSelect';

describe('the report range select', () => {
  it("offers the domain's ranges, labelled and defaulted as the domain says", () => {
    expect(REPORT_RANGES).toEqual(REPORT_WINDOW_DAYS.map((days) => ({ days, label: reportWindowLabel(days) })));
    expect(DEFAULT_REPORT_RANGE_DAYS).toBe(DEFAULT_REPORT_WINDOW_DAYS);
  });
});
