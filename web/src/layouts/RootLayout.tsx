import { lazy, Suspense } from 'react';
import { ScrollRestoration } from 'react-router-dom';
import { SERVICE_BUSY_TEXT } from '../hooks/api/client';
import { useCurrentUser } from '../hooks/api/useCurrentUser';
import type { SidebarEntry } from '../routes';
import { LoadingState } from './LoadingState';
import { PublicLayout } from './PublicLayout';

// The signed-in shell (sidebar, mobile menu) is its own chunk: public visitors never fetch it.
const AppShell = lazy(() => import('./AppShell').then((module) => ({ default: module.AppShell })));

/**
 * Picks the route set once GET /api/auth/user has answered: the signed-in shell for a user,
 * the public layout when signed out (or a failed check). Until then, a neutral loading state: on a
 * reload nobody sees the landing page or the not-found card of the wrong set. A busy gateway
 * (503 service_busy) keeps that state, saying so, while the check is retried: never signed out.
 */
export function RootLayout({ sidebarEntries }: { sidebarEntries: SidebarEntry[] }) {
  const { user, isKnown, busy } = useCurrentUser();
  return (
    <>
      <ScrollRestoration />
      {!isKnown ? (
        <LoadingState fullScreen message={busy ? SERVICE_BUSY_TEXT : undefined} />
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
