import { Field, NativeSelect } from '@chakra-ui/react';
import type { DashboardDays } from '../../../hooks/api/useOrders';

/** Spec §9: the dashboard's ranges; 30 days by default. */
export const DATE_RANGES: ReadonlyArray<{ days: DashboardDays; label: string }> = [
  { days: 7, label: 'Last 7 days' },
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last year' },
];
export const DEFAULT_DAYS: DashboardDays = 30;

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
