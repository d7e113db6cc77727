import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './app-config';
import { tokenKeyProblems } from './token-keys';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Where a development machine keeps its generated APP_SECRET (git-ignored). */
export const LOCAL_SECRET_FILE = resolve(process.cwd(), '.data', 'app-secret');
/**
 * Where a development machine keeps its generated sandbox admin token (git-ignored), read by
 * the gateway and the sandbox alike when SANDBOX_ADMIN_TOKEN is unset and the sandbox listens
 * on loopback: `npm start` needs no shared default that anyone could guess.
 */
export const LOCAL_SANDBOX_ADMIN_TOKEN_FILE = resolve(process.cwd(), '.data', 'sandbox-admin-token');

type Env = Record<string, string | undefined>;

/**
 * Reads and validates the environment. Outside production a missing APP_SECRET is generated
 * once and stored in .data/app-secret, so every local process (started together or not)
 * shares the same one; in production it must be set.
 */
export function loadConfig(env: Env = process.env, defaults: Partial<Record<keyof AppConfig, string>> = {}): AppConfig {
  const raw: Env = { ...defaults };
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') raw[key] = value;
  if (!raw.APP_SECRET && raw.NODE_ENV !== 'production')
    raw.APP_SECRET = readOrCreateLocalFile(LOCAL_SECRET_FILE, 'APP_SECRET');
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}));
  if (!raw.APP_SECRET) problems.unshift('APP_SECRET is required when NODE_ENV=production (at least 32 characters)');
  else if (problems.length === 0) problems.push(...tokenKeyProblems(config));
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** loadConfig for a process entry point: prints the problems and exits 1 instead of throwing. */
export function loadConfigOrExit(defaults: Partial<Record<keyof AppConfig, string>> = {}): AppConfig {
  try {
    return loadConfig(process.env, defaults);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example and the README's Configuration section.\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The sandbox admin token of a local start (SANDBOX_ADMIN_TOKEN unset): generated once into
 * .data/sandbox-admin-token (mode 0600), where the gateway and the sandbox both read it. The
 * token itself is never printed; the path is, once, when it is made.
 */
export function readOrCreateLocalSandboxAdminToken(): string {
  return readOrCreateLocalFile(LOCAL_SANDBOX_ADMIN_TOKEN_FILE, 'SANDBOX_ADMIN_TOKEN');
}

const warned = new Set<string>();
function readOrCreateLocalFile(file: string, name: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    try {
      // 'wx' fails if another process created it first: then we read theirs.
      writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
      if (!warned.has(file)) {
        warned.add(file);
        process.stderr.write(
          `WARNING: ${name} is not set; generated one and stored it in ${file}. Set ${name} yourself for anything but local development.\n`,
        );
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return readFileSync(file, 'utf8').trim();
  }
}
