import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { mutate, SWRConfig, type SWRConfiguration } from 'swr';
import { Toaster } from '../components/ui/toaster';
import { fetcher, hasErrorCode } from '../hooks/api/client';
import { API } from '../hooks/api/keys';
import { system } from './system';

// Spec §9: no automatic refetching, nothing goes stale, no retries.
const swrConfig: SWRConfiguration = {
  fetcher,
  revalidateOnFocus: false,
  revalidateIfStale: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
  // A 401 on any other query means the session ended: forget the user, which switches
  // to the public route set (the sign-in page is one click away).
  onError: (error: unknown, key: string) => {
    if (hasErrorCode(error, 'unauthenticated') && key !== API.currentUser) {
      void mutate(API.currentUser, null, { revalidate: false });
    }
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
