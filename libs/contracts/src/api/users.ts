import type { DisplayCurrencyCode } from '@pod/domain';

/** GET /api/auth/user: the signed-in user as the web app sees it (never the session). */
export interface PublicUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  currency: DisplayCurrencyCode;
  /** A "Try the demo" account: sample data from the sandbox, removed after 24 hours. */
  isDemo: boolean;
}

/** POST /api/auth/register, /api/auth/login and /api/auth/dev-login (which also set the session cookie). */
export interface AuthResponse {
  user: PublicUser;
}
