import useSWR from 'swr';
import type { PublicUser } from '@pod/contracts';
import { fetcher, hasErrorCode } from './client';
import { API } from './keys';

/** GET /api/auth/user: the user, or null when signed out (204, no body; a 401 from an older gateway too). */
export async function fetchCurrentUser(): Promise<PublicUser | null> {
  try {
    return (await fetcher<PublicUser | undefined>(API.currentUser)) ?? null;
  } catch (error) {
    if (hasErrorCode(error, 'unauthenticated')) return null;
    throw error;
  }
}

export function useCurrentUser() {
  const { data, error, isLoading, mutate } = useSWR<PublicUser | null>(API.currentUser, fetchCurrentUser, {
    shouldRetryOnError: false,
    errorRetryCount: 0,
  });
  return {
    user: data ?? null,
    isLoading,
    /** True once the server answered (with a user, a 401 or an error). */
    isKnown: !isLoading && (data !== undefined || error !== undefined),
    error: error as Error | undefined,
    mutate,
  };
}
