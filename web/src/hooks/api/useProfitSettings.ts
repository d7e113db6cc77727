import useSWR from 'swr';
import type { ProfitSettingsResponse, UpdateProfitSettingsRequest } from '@pod/contracts';
import { apiRequest } from './client';
import { API, API_PREFIX } from './keys';
import { resetByPrefix } from './mutateByPrefix';

/** GET /api/profit-settings: the settings the profit figures depend on. */
export function useProfitSettings() {
  const { data, error, isLoading, mutate } = useSWR<ProfitSettingsResponse>(API.profitSettings);
  return { settings: data, error: error as Error | undefined, isLoading, mutate };
}

/**
 * PATCH /api/profit-settings. The orders are figured again in the background: every cached order
 * answer is dropped, so the next visit to Orders or the Dashboard asks for the new figures.
 */
export async function saveProfitSettings(change: UpdateProfitSettingsRequest): Promise<ProfitSettingsResponse> {
  const saved = await apiRequest<ProfitSettingsResponse>('PATCH', API.profitSettings, change);
  if (saved.recalculating) void resetByPrefix(...API_PREFIX.orderData);
  return saved;
}
