import { lazy, type ComponentType } from 'react';
import type { IconType } from 'react-icons';
import {
  LuChartLine,
  LuGitCompareArrows,
  LuLandmark,
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

// The landing page ships in the entry chunk (it is the first load that matters most); every
// other page is its own chunk, fetched when first shown. Keep signed-in pages behind
// lazy(): a static import here would put them back into every public visitor's download.
const LoginPage = lazy(() => import('./pages/auth/LoginPage').then((module) => ({ default: module.LoginPage })));
const SignupPage = lazy(() => import('./pages/auth/SignupPage').then((module) => ({ default: module.SignupPage })));
const ContactPage = lazy(() =>
  import('./pages/contact/ContactPage').then((module) => ({ default: module.ContactPage })),
);
const PrivacyPage = lazy(() => import('./pages/legal/PrivacyPage').then((module) => ({ default: module.PrivacyPage })));
const TermsPage = lazy(() => import('./pages/legal/TermsPage').then((module) => ({ default: module.TermsPage })));
const DashboardPage = lazy(() =>
  import('./pages/dashboard/DashboardPage').then((module) => ({ default: module.DashboardPage })),
);
const ConnectionsPage = lazy(() =>
  import('./pages/connections/ConnectionsPage').then((module) => ({ default: module.ConnectionsPage })),
);
const OrdersPage = lazy(() => import('./pages/orders/OrdersPage').then((module) => ({ default: module.OrdersPage })));
const PayoutsPage = lazy(() =>
  import('./pages/payouts/PayoutsPage').then((module) => ({ default: module.PayoutsPage })),
);
const SettingsPage = lazy(() =>
  import('./pages/settings/SettingsPage').then((module) => ({ default: module.SettingsPage })),
);
const AnalyticsPage = lazy(() =>
  import('./pages/analytics/AnalyticsPage').then((module) => ({ default: module.AnalyticsPage })),
);
const MatchingPage = lazy(() =>
  import('./pages/matching/MatchingPage').then((module) => ({ default: module.MatchingPage })),
);

export interface NavItem {
  label: string;
  icon: IconType;
}

/**
 * One row per path. `public` renders while signed out, `app` renders inside the shell when
 * signed in; a missing side falls under the not-found rule. While the session is still being
 * checked, neither shows (a neutral loading state does). `signedInGoesHome` sends a signed-in
 * visitor to / instead (sign-in and sign-up). `nav` puts the path in the sidebar. Later issues
 * add pages by filling in `app` on an existing row or adding a row.
 */
export interface RouteEntry {
  path: string;
  public?: ComponentType;
  app?: ComponentType;
  signedInGoesHome?: boolean;
  nav?: NavItem;
}

export interface SidebarEntry extends NavItem {
  path: string;
  /** False while the path has no signed-in page yet: the sidebar shows it as "Coming soon", not as a link to the not-found card. */
  available: boolean;
}

export const routeTable: RouteEntry[] = [
  { path: '/', public: LandingPage, app: DashboardPage, nav: { label: 'Dashboard', icon: LuLayoutDashboard } },
  { path: '/connections', app: ConnectionsPage, nav: { label: 'Connections', icon: LuPlug } },
  { path: '/orders', app: OrdersPage, nav: { label: 'Orders', icon: LuReceipt } },
  { path: '/matching', app: MatchingPage, nav: { label: 'Order Matching', icon: LuGitCompareArrows } },
  { path: '/payouts', app: PayoutsPage, nav: { label: 'Payouts', icon: LuLandmark } },
  { path: '/analytics', app: AnalyticsPage, nav: { label: 'Analytics', icon: LuChartLine } },
  { path: '/settings', app: SettingsPage, nav: { label: 'Settings', icon: LuSettings } },
  { path: '/login', public: LoginPage, signedInGoesHome: true },
  { path: '/signup', public: SignupPage, signedInGoesHome: true },
  { path: '/contact', public: ContactPage, app: ContactPage },
  { path: '/privacy', public: PrivacyPage, app: PrivacyPage },
  { path: '/terms', public: TermsPage, app: TermsPage },
];

export const sidebarEntries: SidebarEntry[] = routeTable.flatMap((entry) =>
  entry.nav ? [{ path: entry.path, ...entry.nav, available: entry.app !== undefined }] : [],
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
