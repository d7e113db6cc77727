import { REPORT_WINDOW_DAYS, isReportWindowDays, reportWindowLabel } from './report-windows';

describe('report windows', () => {
  it('are the spec windows, labelled as the screens show them', () => {
    expect(REPORT_WINDOW_DAYS.map(reportWindowLabel)).toEqual([
      'Last 7 days',
      'Last 30 days',
      'Last 90 days',
      'Last year',
    ]);
    expect([7, 30, 90, 365].every(isReportWindowDays)).toBe(true);
    expect([0, 1, 31, 366].some(isReportWindowDays)).toBe(false);
  });
});
