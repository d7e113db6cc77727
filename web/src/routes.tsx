import type { ComponentType } from 'react';
import type { IconType } from 'react-icons';
import {
  LuChartLine,
  LuGitCompareArrows,
  LuLayoutDashboard,
  LuPlug,
  LuReceipt,
  LuSettings,
} from 'react-icons/lu';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { RootLayout } from './layouts/RootLayout';
import { RouteSwitch } from './layouts/RouteSwitch';
import { RouteErrorPage } from './pages/errors/RouteErrorPage';
import { NotFoundPage } from './pages/errors/NotFoundPage';
import { LandingPage } from './pages/landing/LandingPage';
import { LoginPage } from './pages/auth/LoginPage';
import { SignupPage } from './pages/auth/SignupPage';
import { ContactPage } from './pages/contact/ContactPage';
import { PrivacyPage } from './pages/legal/PrivacyPage';
import { TermsPage } from './pages/legal/TermsPage';
import { DashboardPage } from './pages/dashboard/DashboardPage';
import { ConnectionsPage } from './pages/connections/ConnectionsPage';

export interface NavItem {
  label: string;
  icon: IconType;
}

/**
 * One row per path. `public` renders while signed out (or while the session is still
 * loading), `app` renders inside the shell when signed in; a missing side falls under the
 * not-found rule. `nav` puts the path in the sidebar. Later issues add pages by filling in
 * `app` on an existing row or adding a row.
 */
export interface RouteEntry {
  path: string;
  public?: ComponentType;
  app?: ComponentType;
  nav?: NavItem;
}

export interface SidebarEntry extends NavItem {
  path: string;
}

export const routeTable: RouteEntry[] = [
  { path: '/', public: LandingPage, app: DashboardPage, nav: { label: 'Dashboard', icon: LuLayoutDashboard } },
  { path: '/connections', app: ConnectionsPage, nav: { label: 'Connections', icon: LuPlug } },
  { path: '/orders', nav: { label: 'Orders', icon: LuReceipt } },
  { path: '/matching', nav: { label: 'Order Matching', icon: LuGitCompareArrows } },
  { path: '/analytics', nav: { label: 'Analytics', icon: LuChartLine } },
  { path: '/settings', nav: { label: 'Settings', icon: LuSettings } },
  { path: '/login', public: LoginPage },
  { path: '/signup', public: SignupPage },
  { path: '/contact', public: ContactPage, app: ContactPage },
  { path: '/privacy', public: PrivacyPage, app: PrivacyPage },
  { path: '/terms', public: TermsPage, app: TermsPage },
];

export const sidebarEntries: SidebarEntry[] = routeTable.flatMap((entry) =>
  entry.nav ? [{ path: entry.path, ...entry.nav }] : [],
);

export function buildRouteObjects(): RouteObject[] {
  return [
    {
      element: <RootLayout sidebarEntries={sidebarEntries} />,
      errorElement: <RouteErrorPage />,
      children: [
        ...routeTable.map((entry) => ({ path: entry.path, element: <RouteSwitch entry={entry} /> })),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRouteObjects());
}
