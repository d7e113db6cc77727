/** History state of logout's move to /login, taken while the user is still in the cache. */
export const SIGN_OUT_NAVIGATION = { signedOut: true } as const;

export function isSignOutNavigation(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { signedOut?: unknown }).signedOut === true;
}
