import { Field, NativeSelect } from '@chakra-ui/react';
import { SORT_OPTIONS, sortText, type OrdersSort } from '../orderSort';

const optionValue = (sort: OrdersSort) => `${sort.key}:${sort.dir}`;

/**
 * "Sort by" for every width: the phone's cards have no headers to press, and the margin has no
 * column of its own (it is under each profit).
 */
export function OrdersSortSelect({ sort, onSort }: { sort: OrdersSort; onSort: (sort: OrdersSort) => void }) {
  return (
    <Field.Root w={{ base: 'full', sm: '17rem' }} orientation="horizontal" gap="2">
      <Field.Label whiteSpace="nowrap" fontSize="sm" color="fg.muted" flexShrink={0}>
        Sort by
      </Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field
          name="orders-sort"
          value={optionValue(sort)}
          onChange={(event) => {
            const picked = SORT_OPTIONS.find((option) => optionValue(option) === event.target.value);
            if (picked) onSort(picked);
          }}
          bg="bg.panel"
        >
          {SORT_OPTIONS.map((option) => (
            <option key={optionValue(option)} value={optionValue(option)}>
              {sortText(option)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
