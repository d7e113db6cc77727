/**
 * The one redactor: every text that may carry a credential (an upstream error body, a job's
 * failure reason, a logged request URL) passes through here before it is logged or shown.
 * The provider clients, the operator view and the sandbox's request log all use it, so a
 * secret one of them blanks cannot slip through another.
 */
export const REDACTED = '[redacted]';

/**
 * Names whose values are credentials, wherever they appear: OAuth codes, states and PKCE
 * values, tokens, client secrets, API keys, passwords, authorization headers, and the
 * sandbox's consent ticket.
 */
export const SECRET_NAMES = [
  'code',
  'state',
  'code_verifier',
  'code_challenge',
  'token',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret',
  'password',
  'api_key',
  'api-key',
  'apikey',
  'x-api-key',
  'keystring',
  'authorization',
  'consent',
] as const;

const SECRET_NAME_SET: ReadonlySet<string> = new Set(SECRET_NAMES);

export function isSecretName(name: string): boolean {
  return SECRET_NAME_SET.has(name.toLowerCase());
}

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest names first, so `access_token=` is not read as `token=` after `access_`.
const NAME_ALTERNATIVES = [...SECRET_NAMES]
  .sort((a, b) => b.length - a.length)
  .map(escapeForRegExp)
  .join('|');
/** `name=value`, `name: value`, `"name":"value"`, `'name': 'value'`. */
const SECRET_PAIR = new RegExp(
  `(^|[^A-Za-z0-9_-])(${NAME_ALTERNATIVES})(["']?\\s*[:=]\\s*)("[^"]*"|'[^']*'|[^\\s,;&"']+)`,
  'gi',
);
const BEARER = /\b(bearer\s+)\S+/gi;
const URL_QUERY = /(https?:\/\/[^\s?#]+)\?[^\s#]*/gi;
const LINE_BREAKS = /[\r\n\u2028\u2029\t]+/g;

/** A URL's query parameters with the values of secret names replaced by [redacted]. */
export function redactQuery(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) out[key] = isSecretName(key) ? REDACTED : value;
  return out;
}

/**
 * Free text made safe to log or show: one line; every value in `knownSecrets` (the caller's
 * own keys and tokens, at least 4 characters) blanked; bearer credentials, pairs of a secret
 * name and its value, and URL query strings blanked; then cut to `maxLength` characters.
 */
export function redactText(text: string, options: { maxLength: number; knownSecrets?: readonly string[] }): string {
  let out = text.replace(LINE_BREAKS, ' ');
  for (const secret of [...(options.knownSecrets ?? [])].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  out = out
    .replace(BEARER, `$1${REDACTED}`)
    .replace(SECRET_PAIR, `$1$2$3${REDACTED}`)
    .replace(URL_QUERY, `$1?${REDACTED}`);
  return out.length > options.maxLength ? `${out.slice(0, options.maxLength - 1)}…` : out;
}
