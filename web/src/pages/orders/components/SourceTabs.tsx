import { Box, Button, Flex } from '@chakra-ui/react';
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { OrdersSourceTab } from '@pod/contracts';

export const SOURCE_TABS: ReadonlyArray<{ value: OrdersSourceTab; label: string }> = [
  { value: 'all', label: 'All Orders' },
  { value: 'etsy', label: 'Etsy' },
  { value: 'printify', label: 'Printify' },
];

interface SourceTabsProps {
  value: OrdersSourceTab;
  onChange: (value: OrdersSourceTab) => void;
  /** Per tab, shown as "Etsy (12)"; undefined while the first answer loads. */
  counts: Record<OrdersSourceTab, number> | undefined;
  children: ReactNode;
}

const tabId = (value: OrdersSourceTab) => `orders-tab-${value}`;
const PANEL_ID = 'orders-tab-panel';

/**
 * "All Orders (n)", "Etsy (n)", "Printify (n)" (spec §2): the WAI-ARIA tabs pattern (arrow keys,
 * Home and End move and select; one tab in the Tab order) over one panel holding the list. Built
 * from buttons rather than Chakra's Tabs, whose machine and recipe would land in every visitor's
 * first load (the vendor chunk) for this one use.
 */
export function SourceTabs({ value, onChange, counts, children }: SourceTabsProps) {
  const list = useRef<HTMLDivElement>(null);
  const select = (index: number) => {
    const next = SOURCE_TABS[(index + SOURCE_TABS.length) % SOURCE_TABS.length];
    onChange(next.value);
    list.current?.querySelector<HTMLButtonElement>(`#${tabId(next.value)}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = SOURCE_TABS.findIndex((tab) => tab.value === value);
    const moves: Record<string, number> = {
      ArrowRight: current + 1,
      ArrowLeft: current - 1,
      Home: 0,
      End: SOURCE_TABS.length - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    select(moves[event.key]);
  };
  return (
    <Box>
      <Flex
        ref={list}
        role="tablist"
        aria-label="Order source"
        gap="1"
        borderBottomWidth="1px"
        borderColor="border"
        overflowX="auto"
        onKeyDown={onKeyDown}
      >
        {SOURCE_TABS.map((tab) => {
          const selected = tab.value === value;
          return (
            <Button
              key={tab.value}
              id={tabId(tab.value)}
              role="tab"
              aria-selected={selected}
              aria-controls={PANEL_ID}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.value)}
              variant="ghost"
              size="sm"
              flexShrink={0}
              borderRadius="0"
              mb="-1px"
              borderBottomWidth="2px"
              borderColor={selected ? 'brand.solid' : 'transparent'}
              color={selected ? 'fg' : 'fg.muted'}
              fontWeight={selected ? 'semibold' : 'medium'}
              _hover={{ bg: 'transparent', color: 'fg' }}
            >
              {tab.label} ({counts ? counts[tab.value].toLocaleString('en-US') : '…'})
            </Button>
          );
        })}
      </Flex>
      <Box id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(value)} pt="4">
        {children}
      </Box>
    </Box>
  );
}
