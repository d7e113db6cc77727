import useSWR from 'swr';
import type { AuthResponse, DemoSandbox } from '@pod/contracts';
import { apiRequest } from './client';
import { API } from './keys';

/**
 * "Try the demo": POST /api/auth/dev-login makes a fresh demo account and sets its session
 * cookie. The caller reloads the page, which starts the app again signed in.
 */
export function startDemo() {
  return apiRequest<AuthResponse>('POST', API.devLogin);
}

/** Loads the whole app again at /, signed in with the new session (a full reload). */
export function reloadIntoApp() {
  window.location.assign('/');
}

/** GET /api/demo/sandbox: the visitor's own sandbox seller. Only asked for in demo mode. */
export function useDemoSandbox(enabled: boolean) {
  const { data, error, isLoading, mutate } = useSWR<DemoSandbox>(enabled ? API.demoSandbox : null);
  return { sandbox: data, error: error as Error | undefined, isLoading, reload: mutate };
}
