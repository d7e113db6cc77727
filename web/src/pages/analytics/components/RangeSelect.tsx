import { Field, NativeSelect } from '@chakra-ui/react';
import type { ReportWindowDays } from '@pod/domain';

// The Dashboard's ranges and labels (REPORT_WINDOW_DAYS, reportWindowLabel), spelled out here:
// importing them beside the Dashboard split them into chunks of their own, whose names every
// first visit downloads in the entry's preload list (the landing budget, ADR 0038).
const RANGES: ReadonlyArray<{ days: ReportWindowDays; label: string }> = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last year' },
];
export const DEFAULT_ANALYTICS_DAYS: ReportWindowDays = 30;

/** The Dashboard's date-range select, for the Analytics page. */
export function RangeSelect({
  days,
  onChange,
}: {
  days: ReportWindowDays;
  onChange: (days: ReportWindowDays) => void;
}) {
  return (
    <Field.Root w={{ base: 'full', md: '12rem' }}>
      <Field.Label srOnly>Date range</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          name="analytics-days"
          value={String(days)}
          onChange={(event) => onChange(Number(event.target.value) as ReportWindowDays)}
          bg="bg.panel"
        >
          {RANGES.map((range) => (
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
