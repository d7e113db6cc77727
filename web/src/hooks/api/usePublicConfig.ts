import useSWR from 'swr';
import { API } from './keys';
import type { PublicConfig } from './types';

/** GET /api/public/config: the support address and whether the demo is on. Public. */
export function usePublicConfig() {
  const { data, error, isLoading } = useSWR<PublicConfig>(API.publicConfig);
  return { config: data, error: error as Error | undefined, isLoading };
}
