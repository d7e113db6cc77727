/**
 * The date windows a seller picks from (spec §2 and §9), in days back from now: the Orders
 * filter's 7, 30 and 90 and the Dashboard's 365 ("Last year"), which the Dashboard's unmatched
 * preview and "View All" link pass on to the Orders page. The API validates `days` against this
 * list and the web app builds its selects from it.
 */
export const REPORT_WINDOW_DAYS = [7, 30, 90, 365] as const;
export type ReportWindowDays = (typeof REPORT_WINDOW_DAYS)[number];

/** The Dashboard's window when the seller has picked none. */
export const DEFAULT_REPORT_WINDOW_DAYS: ReportWindowDays = 30;

/** The window the Dashboard calls "Last year"; the Orders filter offers it only when opened on it. */
export const LAST_YEAR_WINDOW_DAYS: ReportWindowDays = 365;

/** "Last 7 days" … "Last year". */
export function reportWindowLabel(days: ReportWindowDays): string {
  return days === LAST_YEAR_WINDOW_DAYS ? 'Last year' : `Last ${days} days`;
}

export function isReportWindowDays(value: number): value is ReportWindowDays {
  return (REPORT_WINDOW_DAYS as readonly number[]).includes(value);
}
