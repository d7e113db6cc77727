import useSWR from 'swr';
import type { PayoutsPageResponse } from '@pod/contracts';
import { withQuery } from './orderKeys';

export const PAYOUTS_API = '/api/payouts';
export const PAYOUTS_PAGE_SIZE = 10;

/** A page of the seller's Etsy deposits, newest first; the previous page stays on screen while the next loads. */
export function usePayouts(page: number) {
  const { data, error, isLoading, mutate } = useSWR<PayoutsPageResponse>(
    withQuery(PAYOUTS_API, { page, pageSize: PAYOUTS_PAGE_SIZE }),
    { keepPreviousData: true },
  );
  return { payouts: data, error: error as Error | undefined, isLoading, reload: mutate };
}
