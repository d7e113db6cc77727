import { deriveKey } from './derived-keys';

/** In TOKEN_ENCRYPTION_KEYS, the secret of version 1 as every release before rotation had it: APP_SECRET. */
export const APP_SECRET_KEY = 'app-secret';
const MIN_SECRET_LENGTH = 32;
const ENTRY = /^([1-9][0-9]{0,5}):(.+)$/;

/** The token-encryption keys by version, and the version new values are encrypted with. */
export interface TokenKeys {
  keys: ReadonlyMap<number, Buffer>;
  current: number;
}

export interface TokenKeySettings {
  APP_SECRET: string;
  /** `2:<secret>,1:app-secret`; unset: version 1 only, from APP_SECRET. */
  TOKEN_ENCRYPTION_KEYS?: string;
  /** Unset: the highest version listed. */
  TOKEN_ENCRYPTION_KEY_CURRENT?: number;
}

type Parsed = { secrets: Map<number, string>; current: number; problems: string[] };

function parse(settings: TokenKeySettings): Parsed {
  const problems: string[] = [];
  const secrets = new Map<number, string>();
  const listed = settings.TOKEN_ENCRYPTION_KEYS?.trim();
  if (!listed) secrets.set(1, APP_SECRET_KEY);
  else
    for (const [index, item] of listed.split(',').entries()) {
      const match = ENTRY.exec(item.trim());
      // The position, never the entry: it holds a secret.
      if (!match) problems.push(`TOKEN_ENCRYPTION_KEYS entry ${index + 1} must read <version>:<secret>`);
      else {
        const version = Number(match[1]);
        const secret = match[2];
        if (secrets.has(version)) problems.push(`TOKEN_ENCRYPTION_KEYS lists version ${version} twice`);
        else if (secret === APP_SECRET_KEY && version !== 1)
          problems.push(`TOKEN_ENCRYPTION_KEYS: only version 1 may be ${APP_SECRET_KEY}`);
        else if (secret !== APP_SECRET_KEY && secret.length < MIN_SECRET_LENGTH)
          problems.push(
            `TOKEN_ENCRYPTION_KEYS: the secret of version ${version} must be at least ${MIN_SECRET_LENGTH} characters`,
          );
        else secrets.set(version, secret);
      }
    }
  const versions = [...secrets.keys()];
  const current = settings.TOKEN_ENCRYPTION_KEY_CURRENT ?? (versions.length ? Math.max(...versions) : 1);
  if (versions.length && !secrets.has(current))
    problems.push(`TOKEN_ENCRYPTION_KEY_CURRENT is ${current}, a version TOKEN_ENCRYPTION_KEYS does not list`);
  return { secrets, current, problems };
}

/** What is wrong with the token-key settings (empty when nothing is), for loadConfig's report. */
export function tokenKeyProblems(settings: TokenKeySettings): string[] {
  return parse(settings).problems;
}

/**
 * The keys every process decrypts with and the one it encrypts with (security plan item 27).
 * Each version's 32-byte key is derived from its secret per version, so a secret reused for
 * two versions still gives two keys; version 1 from APP_SECRET is the key every token was
 * stored under before rotation. Rotation: list the new version beside the old one everywhere
 * (current still the old), then make it current, run `cli.js reencrypt-tokens`, and remove
 * the old version (docs/adr/0035-token-key-rotation.md).
 */
export function tokenKeysOf(settings: TokenKeySettings): TokenKeys {
  const { secrets, current, problems } = parse(settings);
  if (problems.length) throw new Error(problems.join('; '));
  const keys = new Map<number, Buffer>();
  for (const [version, secret] of secrets)
    keys.set(
      version,
      deriveKey(secret === APP_SECRET_KEY ? settings.APP_SECRET : secret, `token-encryption-v${version}`),
    );
  return { keys, current };
}
