// Shapes of the gateway's answers used by the web app.

export type CurrencyCode = 'USD' | 'EUR' | 'GBP';

export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  currency: CurrencyCode;
}

export interface PublicConfig {
  supportEmail: string;
  demoEnabled: boolean;
}

export interface AuthResponse {
  user: CurrentUser;
}

export interface RegisterInput {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
}

export interface LoginInput {
  email: string;
  password: string;
}
