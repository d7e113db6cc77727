import type { DisplayCurrencyCode } from '@pod/domain';
import { apiRequest } from './client';

// Kept out of keys.ts: that module ships with the landing page, these only with Settings.
export const ACCOUNT_API = {
  settings: '/api/user/settings',
  changePassword: '/api/user/change-password',
  changeEmail: '/api/user/change-email',
} as const;

/** PATCH /api/user/settings: the display currency, stored on the account (it follows the seller to other browsers). */
export function saveDisplayCurrency(currency: DisplayCurrencyCode): Promise<{ currency: DisplayCurrencyCode }> {
  return apiRequest('PATCH', ACCOUNT_API.settings, { currency });
}

/** POST /api/user/change-password; the server ends the seller's other sessions. */
export function changePassword(currentPassword: string, newPassword: string): Promise<{ ok: true }> {
  return apiRequest('POST', ACCOUNT_API.changePassword, { currentPassword, newPassword });
}

/** POST /api/user/change-email: answers the stored (trimmed, lower-cased) email; the other sessions end. */
export function changeEmail(email: string, currentPassword: string): Promise<{ email: string }> {
  return apiRequest('POST', ACCOUNT_API.changeEmail, { email, currentPassword });
}
