import { lazy, Suspense } from 'react';
import { ScrollRestoration } from 'react-router-dom';
import { useCurrentUser } from '../hooks/api/useCurrentUser';
import type { SidebarEntry } from '../routes';
import { LoadingState } from './LoadingState';
import { PublicLayout } from './PublicLayout';

// The signed-in shell (sidebar, mobile menu) is its own chunk: public visitors never fetch it.
const AppShell = lazy(() => import('./AppShell').then((module) => ({ default: module.AppShell })));

/**
 * Picks the route set once GET /api/auth/user has answered: the signed-in shell for a user,
 * the public layout for a 401 (or a failed check). Until then, a neutral loading state: on a
 * reload nobody sees the landing page or the not-found card of the wrong set.
 */
export function RootLayout({ sidebarEntries }: { sidebarEntries: SidebarEntry[] }) {
  const { user, isKnown } = useCurrentUser();
  return (
    <>
      <ScrollRestoration />
      {!isKnown ? (
        <LoadingState fullScreen />
      ) : user ? (
        <Suspense fallback={<LoadingState fullScreen />}>
          <AppShell user={user} entries={sidebarEntries} />
        </Suspense>
      ) : (
        <PublicLayout />
      )}
    </>
  );
}
