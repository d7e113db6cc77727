import useSWR from 'swr';
import type { PublicUser } from '@pod/contracts';
import { fetcher, hasErrorCode } from './client';
import { API } from './keys';

/** GET /api/auth/user; a 401 means "signed out" (null), not an error. */
export async function fetchCurrentUser(): Promise<PublicUser | null> {
  try {
    return await fetcher<PublicUser>(API.currentUser);
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
