import { useCurrentUser } from '../hooks/api/useCurrentUser';
import { NotFoundPage } from '../pages/errors/NotFoundPage';
import type { RouteEntry } from '../routes';

/** Renders a route's page for the active route set, or the not-found card. */
export function RouteSwitch({ entry }: { entry: RouteEntry }) {
  const { user } = useCurrentUser();
  const Page = user ? entry.app : entry.public;
  return Page ? <Page /> : <NotFoundPage />;
}
