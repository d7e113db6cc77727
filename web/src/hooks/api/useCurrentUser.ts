import useSWR from 'swr';
import type { PublicUser } from '@pod/contracts';
import { fetcher, hasErrorCode, isServiceBusy, serviceBusyRetry } from './client';
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
    // A busy gateway could not check the session: ask again, never treat it as signed out.
    shouldRetryOnError: isServiceBusy,
    onErrorRetry: serviceBusyRetry,
  });
  const busy = data === undefined && isServiceBusy(error);
  return {
    user: data ?? null,
    isLoading,
    /** True once the server answered (with a user, signed out, or an error other than "busy"). */
    isKnown: !isLoading && (data !== undefined || (error !== undefined && !busy)),
    /** The first check was answered "busy" and is being retried. */
    busy,
    error: error as Error | undefined,
    mutate,
  };
}
