import type { SystemStyleObject } from '@chakra-ui/react';

/**
 * For the order tables' `Table.Root css`: between lg and xl (1024–1279 px, about 700 px beside
 * the sidebar) every column fits without scrolling sideways. Each column but the one whose cells
 * carry `data-grow` takes only the width its content needs (width 1px is table layout's
 * shrink-to-fit idiom: without it the growing column left the others their one-line widths and
 * the table overflowed), a header may take two lines ("Match" over "Status"), and the padding is
 * a little tighter. Cells stay on one line (Table.ScrollArea's nowrap) unless they say otherwise.
 * From xl the browser's own layout has room, as before.
 */
export const FIT_COLUMNS_BELOW_XL: SystemStyleObject = {
  '& :is(th, td)': { paddingInline: { lg: '1.5', xl: '2' } },
  '& :is(th, td):not([data-grow])': { width: { lg: '1px', xl: 'auto' } },
  '& th': { whiteSpace: { lg: 'normal', xl: 'nowrap' } },
};
