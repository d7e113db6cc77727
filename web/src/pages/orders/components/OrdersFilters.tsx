import { Field, Flex, Input, InputGroup, NativeSelect } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuSearch } from 'react-icons/lu';
import type { OrdersArchiveView, OrdersStatusFilter } from '@pod/contracts';
import { LAST_YEAR_WINDOW_DAYS, REPORT_WINDOW_DAYS, reportWindowLabel, type ReportWindowDays } from '@pod/domain';

/** The spec's windows, and 365 when the Dashboard's "Last year" sent the seller here. */
export type OrdersDays = ReportWindowDays | undefined;

/** Spec §2 and §9: the Orders screen's filters and their labels. */
export const STATUS_OPTIONS: ReadonlyArray<{ value: OrdersStatusFilter; label: string }> = [
  { value: 'all', label: 'All Status' },
  { value: 'matched', label: 'Matched' },
  { value: 'pending', label: 'Pending' },
  { value: 'unmatched', label: 'Unmatched' },
  { value: 'not_needed', label: 'No match needed' },
];
export const DATE_OPTIONS: ReadonlyArray<{ value: OrdersDays; label: string }> = [
  { value: undefined, label: 'All Time' },
  ...REPORT_WINDOW_DAYS.filter((days) => days !== LAST_YEAR_WINDOW_DAYS).map((days) => ({
    value: days,
    label: reportWindowLabel(days),
  })),
];
/** Offered only to a page opened on it (the Dashboard's "View All … Unmatched Orders" over its "Last year"). */
export const LAST_YEAR_OPTION: { value: OrdersDays; label: string } = {
  value: LAST_YEAR_WINDOW_DAYS,
  label: reportWindowLabel(LAST_YEAR_WINDOW_DAYS),
};
const VIEW_OPTIONS: ReadonlyArray<{ value: OrdersArchiveView; label: string }> = [
  { value: 'active', label: 'Active orders' },
  { value: 'archived', label: 'Archived orders' },
];

function Select({
  label,
  name,
  value,
  onChange,
  children,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <Field.Root w={{ base: 'full', sm: 'auto' }} minW={{ sm: '10rem' }}>
      <Field.Label srOnly>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value)} bg="bg.panel">
          {children}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

interface OrdersFiltersProps {
  search: string;
  onSearch: (search: string) => void;
  status: OrdersStatusFilter;
  onStatus: (status: OrdersStatusFilter) => void;
  days: OrdersDays;
  onDays: (days: OrdersDays) => void;
  /** Adds "Last year" to the spec's date windows. */
  offerLastYear: boolean;
  view: OrdersArchiveView;
  onView: (view: OrdersArchiveView) => void;
}

export function OrdersFilters({
  search,
  onSearch,
  status,
  onStatus,
  days,
  onDays,
  offerLastYear,
  view,
  onView,
}: OrdersFiltersProps) {
  const dateOptions = offerLastYear ? [...DATE_OPTIONS, LAST_YEAR_OPTION] : DATE_OPTIONS;
  return (
    <Flex gap="3" direction={{ base: 'column', md: 'row' }} wrap="wrap">
      <Field.Root flex="1" minW={{ md: '16rem' }}>
        <Field.Label srOnly>Search orders</Field.Label>
        <InputGroup startElement={<LuSearch aria-hidden="true" />}>
          <Input
            type="search"
            name="order-search"
            placeholder="Search orders..."
            value={search}
            onChange={(event) => onSearch(event.target.value)}
            bg="bg.panel"
          />
        </InputGroup>
      </Field.Root>
      <Select
        label="Status"
        name="order-status"
        value={status}
        onChange={(value) => onStatus(value as OrdersStatusFilter)}
      >
        {STATUS_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      <Select
        label="Date"
        name="order-days"
        value={String(days ?? '')}
        onChange={(value) => onDays(dateOptions.find((option) => String(option.value ?? '') === value)?.value)}
      >
        {dateOptions.map((option) => (
          <option key={option.label} value={option.value ?? ''}>
            {option.label}
          </option>
        ))}
      </Select>
      <Select
        label="Active or archived orders"
        name="order-view"
        value={view}
        onChange={(value) => onView(value as OrdersArchiveView)}
      >
        {VIEW_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </Flex>
  );
}
