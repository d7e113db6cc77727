import useSWR from 'swr';
import { ApiError, fetcher } from './client';
import { API } from './keys';
import type { CurrentUser } from './types';

/** GET /api/auth/user; a 401 means "signed out" (null), not an error. */
export async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    return await fetcher<CurrentUser>(API.currentUser);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useCurrentUser() {
  const { data, error, isLoading, mutate } = useSWR<CurrentUser | null>(API.currentUser, fetchCurrentUser, {
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
