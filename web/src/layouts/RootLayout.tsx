import { ScrollRestoration } from 'react-router-dom';
import { useCurrentUser } from '../hooks/api/useCurrentUser';
import type { SidebarEntry } from '../routes';
import { AppShell } from './AppShell';
import { PublicLayout } from './PublicLayout';

/**
 * Picks the route set: the signed-in shell once GET /api/auth/user answered with a user,
 * otherwise (signed out, or still loading) the public layout.
 */
export function RootLayout({ sidebarEntries }: { sidebarEntries: SidebarEntry[] }) {
  const { user } = useCurrentUser();
  return (
    <>
      <ScrollRestoration />
      {user ? <AppShell user={user} entries={sidebarEntries} /> : <PublicLayout />}
    </>
  );
}
