import useSWR from 'swr';
import type { PayoutsPageResponse } from '@pod/contracts';
import { useDisplayCurrency } from '../useDisplayCurrency';
import { withQuery } from './orderKeys';

export const PAYOUTS_API = '/api/payouts';
export const PAYOUTS_PAGE_SIZE = 10;

/**
 * A page of the seller's Etsy deposits, newest first, each also in the display currency; the
 * previous page stays on screen while the next loads.
 */
export function usePayouts(page: number) {
  const currency = useDisplayCurrency();
  const { data, error, isLoading, mutate } = useSWR<PayoutsPageResponse>(
    withQuery(PAYOUTS_API, { page, pageSize: PAYOUTS_PAGE_SIZE, currency }),
    { keepPreviousData: true },
  );
  return { payouts: data, error: error as Error | undefined, isLoading, reload: mutate };
}
