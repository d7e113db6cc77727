import { Button, Flex, Text } from '@chakra-ui/react';
import { useEffect } from 'react';

/**
 * Back to the last page when the list shrank under the one shown (a restore, a match or an
 * archive took its last rows): else the seller sits on an empty page with no pager to leave it.
 */
export function useKeepPageInRange(page: number, pageCount: number | null, setPage: (page: number) => void): void {
  useEffect(() => {
    if (pageCount !== null && page > Math.max(1, pageCount)) setPage(Math.max(1, pageCount));
  }, [page, pageCount, setPage]);
}

interface PagerProps {
  page: number;
  pageCount: number;
  /** Shown on the left, e.g. "Showing 1-15 of 40 orders". */
  summary?: string;
  /** "Page X of Y" shows only when there is more than one page (spec §2, Order Matching). */
  onPage: (page: number) => void;
  busy?: boolean;
  label: string;
}

/** Previous / Next over a server-paged list. */
export function Pager({ page, pageCount, summary, onPage, busy = false, label }: PagerProps) {
  return (
    <Flex as="nav" aria-label={label} justify="space-between" align="center" gap="3" wrap="wrap" pt="4">
      <Text fontSize="sm" color="fg.muted" aria-live="polite">
        {summary}
      </Text>
      <Flex align="center" gap="3">
        {pageCount > 1 && (
          <Text fontSize="sm" color="fg.muted">
            Page {page} of {pageCount}
          </Text>
        )}
        <Button size="sm" variant="outline" onClick={() => onPage(page - 1)} disabled={page <= 1 || busy}>
          Previous
        </Button>
        <Button size="sm" variant="outline" onClick={() => onPage(page + 1)} disabled={page >= pageCount || busy}>
          Next
        </Button>
      </Flex>
    </Flex>
  );
}
