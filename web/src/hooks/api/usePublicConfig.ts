import useSWR from 'swr';
import type { PublicConfig } from '@pod/contracts';
import { API } from './keys';

/** GET /api/public/config: the support address and whether the demo is on. Public. */
export function usePublicConfig() {
  const { data, error, isLoading } = useSWR<PublicConfig>(API.publicConfig);
  return { config: data, error: error as Error | undefined, isLoading };
}
