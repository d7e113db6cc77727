import { Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useCurrentUser } from '../hooks/api/useCurrentUser';
import { isSignOutNavigation } from '../hooks/signOutNavigation';
import { NotFoundPage } from '../pages/errors/NotFoundPage';
import type { RouteEntry } from '../routes';
import { LoadingState } from './LoadingState';

/**
 * Renders a route's page for the active route set, or the not-found card. A signed-in visitor
 * who opens sign-in or sign-up goes home, except on the way out: logout moves to /login a
 * moment before it forgets the user.
 */
export function RouteSwitch({ entry }: { entry: RouteEntry }) {
  const { user } = useCurrentUser();
  const location = useLocation();
  if (user && entry.signedInGoesHome && !isSignOutNavigation(location.state)) return <Navigate to="/" replace />;
  const Page = user ? entry.app : entry.public;
  if (!Page) return <NotFoundPage />;
  return (
    <Suspense fallback={<LoadingState />}>
      <Page />
    </Suspense>
  );
}
