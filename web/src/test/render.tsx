import { ChakraProvider } from '@chakra-ui/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import { SWRConfig } from 'swr';
import type { PublicUser } from '@pod/contracts';
import { Toaster, toaster } from '../components/ui/toaster';
import { fetcher } from '../hooks/api/client';
import { system } from '../theme/system';

export const TEST_USER: PublicUser = {
  id: '7f1c2d4e-0000-4000-8000-000000000001',
  email: 'avery@example.com',
  firstName: 'Avery',
  lastName: 'Tester',
  currency: 'USD',
  isDemo: false,
};

/**
 * Renders `ui` inside the app's providers (Chakra's system, SWR as AppProviders sets it but with
 * a fresh cache per test, a router, the toast region), signed in as `user`.
 */
export function renderWithApp(ui: ReactElement, { user = TEST_USER }: { user?: PublicUser } = {}) {
  const cache = new Map();
  const rendered = render(
    <ChakraProvider value={system}>
      <SWRConfig
        value={{
          provider: () => cache,
          fetcher,
          fallback: { '/api/auth/user': user },
          revalidateOnMount: false,
          revalidateOnFocus: false,
          shouldRetryOnError: false,
          dedupingInterval: 0,
        }}
      >
        <MemoryRouter>{ui}</MemoryRouter>
        <Toaster />
      </SWRConfig>
    </ChakraProvider>,
  );
  return { ...rendered, user: userEvent.setup() };
}

/**
 * Records every toast the app asks for, as "title: description", while still showing it. (In
 * jsdom no exit animation ever ends, so a toast that replaces another never reaches the DOM.)
 */
export function recordToasts(): string[] {
  const shown: string[] = [];
  const create = toaster.create.bind(toaster);
  vi.spyOn(toaster, 'create').mockImplementation((input) => {
    shown.push(`${input.title}: ${input.description ?? ''}`);
    return create(input);
  });
  return shown;
}
