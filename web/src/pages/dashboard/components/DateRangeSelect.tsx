import { Field, NativeSelect } from '@chakra-ui/react';
import { DEFAULT_REPORT_WINDOW_DAYS, REPORT_WINDOW_DAYS, reportWindowLabel } from '@pod/domain';
import type { DashboardDays } from '../../../hooks/api/useOrders';

/** Spec §9: the dashboard's ranges; 30 days by default. */
export const DATE_RANGES: ReadonlyArray<{ days: DashboardDays; label: string }> = REPORT_WINDOW_DAYS.map((days) => ({
  days,
  label: reportWindowLabel(days),
}));
export const DEFAULT_DAYS: DashboardDays = DEFAULT_REPORT_WINDOW_DAYS;

export function DateRangeSelect({ days, onChange }: { days: DashboardDays; onChange: (days: DashboardDays) => void }) {
  return (
    <Field.Root w={{ base: 'full', md: '12rem' }}>
      <Field.Label srOnly>Date range</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          name="dashboard-days"
          value={String(days)}
          onChange={(event) => onChange(Number(event.target.value) as DashboardDays)}
          bg="bg.panel"
        >
          {DATE_RANGES.map((range) => (
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
