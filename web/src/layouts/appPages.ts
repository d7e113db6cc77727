import { createContext, useContext } from 'react';
import type { SidebarEntry } from '../routes';

/**
 * The shell's sidebar entries, for pages that link to other pages (the dashboard's Quick Links).
 * A context rather than an import of routes.tsx: a lazy page importing the route table (which
 * holds the lazy imports) makes the bundler split the entry chunk, costing the landing page's
 * first load an extra request.
 */
export const AppPagesContext = createContext<readonly SidebarEntry[]>([]);

/**
 * Tells whether a signed-in page exists at a path; a sidebar path without one reads "Coming
 * soon". Paths outside the sidebar count as built.
 */
export function useHasAppPage(): (path: string) => boolean {
  const entries = useContext(AppPagesContext);
  return (path) => entries.find((entry) => entry.path === path)?.available ?? true;
}
