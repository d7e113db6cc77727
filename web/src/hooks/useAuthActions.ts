import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { AuthResponse } from '@pod/contracts';
import { toaster } from '../components/ui/toaster';
import { apiRequest } from './api/client';
import { API } from './api/keys';
import type { LoginInput, RegisterInput } from './api/types';
import { fetchCurrentUser } from './api/useCurrentUser';
import { SIGN_OUT_NAVIGATION } from './signOutNavigation';

/**
 * Sign-in, sign-up and logout. The route set follows the cached current user, so each
 * action navigates first (synchronously flushed) and then swaps the user in the cache;
 * both land before the next paint, and no not-found or landing page flashes in between.
 */
export function useAuthActions() {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();

  const enterApp = useCallback(
    async (successMessage: string) => {
      const user = await fetchCurrentUser();
      await navigate('/', { flushSync: true });
      await mutate(API.currentUser, user, { revalidate: false });
      toaster.success(successMessage);
    },
    [mutate, navigate],
  );

  const signIn = useCallback(
    async (input: LoginInput) => {
      await apiRequest<AuthResponse>('POST', API.login, input);
      await enterApp('Logged in successfully');
    },
    [enterApp],
  );

  const signUp = useCallback(
    async (input: RegisterInput) => {
      await apiRequest<AuthResponse>('POST', API.register, input);
      await enterApp('Account created successfully');
    },
    [enterApp],
  );

  const logout = useCallback(async () => {
    try {
      await apiRequest('POST', API.logout);
    } catch {
      toaster.error('Failed to logout');
      return;
    }
    await navigate('/login', { flushSync: true, state: SIGN_OUT_NAVIGATION });
    await mutate(API.currentUser, null, { revalidate: false });
    // Forget everything the signed-in user had loaded.
    await mutate((key) => key !== API.currentUser && key !== API.publicConfig, undefined, { revalidate: false });
    toaster.success('Logged out successfully');
  }, [mutate, navigate]);

  return { signIn, signUp, logout };
}
