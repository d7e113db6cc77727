import { Field, NativeSelect } from '@chakra-ui/react';
import type { ReportWindowDays } from '@pod/domain';

// The domain's ranges and labels (REPORT_WINDOW_DAYS, reportWindowLabel, DEFAULT_REPORT_WINDOW_DAYS),
// spelled out here and held equal to them by ReportRangeSelect.test.ts: imported by both pages
// they split into a chunk of their own, whose name every first visit downloads in the entry's
// preload list (the landing budget, ADR 0038).
export const REPORT_RANGES: ReadonlyArray<{ days: ReportWindowDays; label: string }> = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last year' },
];
export const DEFAULT_REPORT_RANGE_DAYS: ReportWindowDays = 30;

/**
 * Spec §9: the report's date range (30 days by default), as the Dashboard and the Analytics page
 * both offer it. `name` tells the two pages' fields apart.
 */
export function ReportRangeSelect({
  name,
  days,
  onChange,
}: {
  name: string;
  days: ReportWindowDays;
  onChange: (days: ReportWindowDays) => void;
}) {
  return (
    <Field.Root w={{ base: 'full', md: '12rem' }}>
      <Field.Label srOnly>Date range</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          name={name}
          value={String(days)}
          onChange={(event) => onChange(Number(event.target.value) as ReportWindowDays)}
          bg="bg.panel"
        >
          {REPORT_RANGES.map((range) => (
            <option key={range.days} value={range.days}>
              {range.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
