import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { mutate, SWRConfig, type SWRConfiguration } from 'swr';
import { Toaster } from '../components/ui/toaster';
import { toaster } from '../components/ui/toaster';
import { fetcher, hasErrorCode, isServiceBusy, SERVICE_BUSY_TEXT, serviceBusyRetry } from '../hooks/api/client';
import { API } from '../hooks/api/keys';
import { system } from './system';

// Spec §9: no automatic refetching, nothing goes stale, no retries, except a "busy" answer
// (the gateway could not check the session): asked again after its Retry-After.
const swrConfig: SWRConfiguration = {
  fetcher,
  revalidateOnFocus: false,
  revalidateIfStale: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: isServiceBusy,
  onErrorRetry: serviceBusyRetry,
  onError: (error: unknown, key: string) => {
    // A 401 on any other query means the session ended: forget the user, which switches
    // to the public route set (the sign-in page is one click away).
    if (hasErrorCode(error, 'unauthenticated') && key !== API.currentUser) {
      void mutate(API.currentUser, null, { revalidate: false });
    }
    // Busy is not signed out: the user stays on the page while the query is retried. The
    // session check's own busy state is shown full-screen by RootLayout.
    if (isServiceBusy(error) && key !== API.currentUser) toaster.create({ type: 'warning', title: SERVICE_BUSY_TEXT });
  },
};

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <SWRConfig value={swrConfig}>
        {children}
        <Toaster />
      </SWRConfig>
    </ChakraProvider>
  );
}
