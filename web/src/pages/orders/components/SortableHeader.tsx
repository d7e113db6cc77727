import { Button, Table, Text, type TableColumnHeaderProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { OrdersSortKey } from '@pod/contracts';
import { SORT_LABELS, type OrdersSort } from '../orderSort';

interface SortableHeaderProps extends Omit<TableColumnHeaderProps, 'children'> {
  sortKey: OrdersSortKey;
  sort: OrdersSort;
  onSort: (key: OrdersSortKey) => void;
}

/**
 * A column header that sorts the list by its column (issue 18): a button inside the header (Tab,
 * Enter, Space), the header's aria-sort saying the current order to screen readers, an arrow on
 * the sorted column saying it to the eye. The others show none (an underline on hover): at 1280 px
 * the table has no room for four more arrows beside Actions.
 */
export function SortableHeader({ sortKey, sort, onSort, textAlign, ...headerProps }: SortableHeaderProps) {
  const active = sort.key === sortKey;
  const ariaSort = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  // A text arrow, not an icon: every icon of react-icons/lu joins the first-load vendor chunk.
  const arrow = sort.dir === 'asc' ? '↑' : '↓';
  return (
    <Table.ColumnHeader aria-sort={ariaSort} textAlign={textAlign} {...headerProps}>
      <SortButton sortKey={sortKey} sort={sort} onSort={onSort} justify={textAlign === 'end' ? 'end' : 'start'}>
        {active && (
          <Text as="span" aria-hidden="true" fontSize="sm" lineHeight="1">
            {arrow}
          </Text>
        )}
      </SortButton>
    </Table.ColumnHeader>
  );
}

interface SortButtonProps {
  sortKey: OrdersSortKey;
  sort: OrdersSort;
  onSort: (key: OrdersSortKey) => void;
  justify: 'start' | 'end';
  children?: ReactNode;
}

/** The header's button: its label, then the arrow (before it in a right-aligned column, so figures line up). */
export function SortButton({ sortKey, sort, onSort, justify, children }: SortButtonProps) {
  const active = sort.key === sortKey;
  return (
    <Button
      variant="plain"
      size="xs"
      h="auto"
      minW="0"
      px="0"
      gap="1"
      fontWeight="inherit"
      fontSize="inherit"
      color={active ? 'fg' : 'inherit'}
      _hover={{ textDecoration: 'underline' }}
      flexDirection={justify === 'end' ? 'row-reverse' : 'row'}
      onClick={() => onSort(sortKey)}
      data-sort-key={sortKey}
    >
      {SORT_LABELS[sortKey]}
      {children}
    </Button>
  );
}
