/**
 * The providers a seller connects and the states a stored connection can be in. The
 * database's check constraints, the entities, the API shapes and the provider clients all
 * derive from these lists (a test compares the migrated constraints with them).
 */
export const PROVIDERS = ['etsy', 'printify'] as const;
export type Provider = (typeof PROVIDERS)[number];

export function isProvider(value: unknown): value is Provider {
  return typeof value === 'string' && (PROVIDERS as readonly string[]).includes(value);
}

/** connected; reauth_required (Etsy refused the refresh grant); expired (Printify refused the token). */
export const CONNECTION_STATUSES = ['connected', 'reauth_required', 'expired'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];
