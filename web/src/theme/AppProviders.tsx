import { ChakraProvider } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { SWRConfig, type SWRConfiguration } from 'swr';
import { Toaster } from '../components/ui/toaster';
import { fetcher } from '../hooks/api/client';
import { system } from './system';

// Spec §9: no automatic refetching, nothing goes stale, no retries.
const swrConfig: SWRConfiguration = {
  fetcher,
  revalidateOnFocus: false,
  revalidateIfStale: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
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
