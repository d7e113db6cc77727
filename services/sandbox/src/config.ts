import { ETSY_EVENTS, etsySecretProblem, type EtsySubscription } from './webhooks/etsy-subscriptions';
import { deliveryUrlProblem } from './webhooks/targets';

/**
 * The sandbox's settings, read from SANDBOX_* environment variables. The sandbox is a test
 * double: it refuses to run when real Etsy credentials are configured (see realEtsyCredentials).
 */
export interface EtsyAppRegistration {
  keystring: string;
  sharedSecret: string;
  name: string;
  redirectUris: string[];
}

export interface SandboxOptions {
  host: string;
  port: number;
  /** Root seed: every tenant's data derives from it and the tenant's own seed. */
  seed: string;
  etsyApp: EtsyAppRegistration;
  adminToken: string;
  accessTokenTtlSeconds: number;
  etsyQps: number;
  etsyQpd: number;
  printifyRpm: number;
  requestLogSize: number;
  /** Largest tenant the admin API may create (months × ordersPerMonth). */
  maxOrdersPerTenant: number;
  maxTenants: number;
  /** A tenant no request has used for this long is removed. */
  tenantIdleSeconds: number;
  /** No tenant lives longer than this (a tenant may ask for less: the demo passes its own lifetime). */
  tenantMaxAgeSeconds: number;
  /** Create the tenant "default" at start (for the consent page's picker and manual use). */
  defaultTenant: boolean;
  /** Hosts webhook deliveries may go to besides loopback (SANDBOX_WEBHOOK_HOSTS, and WEBHOOK_PUBLIC_URL's). */
  webhookHosts: string[];
  /** The app-wide Etsy webhook subscription, as if set in Etsy's developer portal (null: none). */
  etsyWebhook: EtsySubscription | null;
  /** The sandbox's own base URL as the product reaches it (Etsy deliveries' resource_url); unset: where it listens. */
  publicUrl?: string;
  /** Multiplies webhook retry delays and Printify's 1-hour block; tests use a small value. */
  webhookTimeScale: number;
  /** The clock, in epoch milliseconds (tests pass their own). */
  now: () => number;
}

type Env = Record<string, string | undefined>;

export class SandboxConfigError extends Error {}

export function defaultSandboxOptions(overrides: Partial<SandboxOptions> = {}): SandboxOptions {
  return {
    host: '127.0.0.1',
    port: 5200,
    seed: 'podprofit-demo',
    etsyApp: {
      keystring: 'sandbox-keystring',
      sharedSecret: 'sandbox-shared-secret',
      name: 'PodProfit',
      redirectUris: ['http://localhost:5000/api/connections/etsy/callback'],
    },
    // In-process tests only (createSandboxApp): readSandboxOptions, the process's path, never falls back to it.
    adminToken: 'sandbox-admin',
    accessTokenTtlSeconds: 3600,
    etsyQps: 10,
    etsyQpd: 10_000,
    printifyRpm: 600,
    requestLogSize: 100_000,
    maxOrdersPerTenant: 250_000,
    maxTenants: 1000,
    tenantIdleSeconds: 86_400,
    tenantMaxAgeSeconds: 7 * 86_400,
    defaultTenant: true,
    webhookHosts: [],
    etsyWebhook: null,
    webhookTimeScale: 1,
    now: () => Date.now(),
    ...overrides,
  };
}

/** The product's public origin as the gateway reads it (no trailing slash). */
function productOrigin(env: Env): string {
  const configured =
    env.PUBLIC_ORIGIN && URL.canParse(env.PUBLIC_ORIGIN) ? new URL(env.PUBLIC_ORIGIN).origin : undefined;
  return configured ?? `http://localhost:${env.PORT || 5000}`;
}

/** Addresses that keep the sandbox to this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The retired built-in admin token: known to anyone who read the code, refused beyond loopback. */
const RETIRED_DEFAULT_TOKEN = 'sandbox-admin';
/** Beyond loopback the admin token guards sellers' Printify tokens: long enough not to be guessed. */
export const MIN_EXPOSED_ADMIN_TOKEN_LENGTH = 24;

/**
 * `localAdminToken` gives the token of a local start when SANDBOX_ADMIN_TOKEN is unset and the
 * sandbox listens on loopback (main passes the generated .data/sandbox-admin-token); without
 * it, or beyond loopback, the token must be set.
 */
export function readSandboxOptions(env: Env = process.env, localAdminToken?: () => string): SandboxOptions {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      problems.push(`${name} must be a number from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };
  const text = (name: string, fallback: string): string =>
    env[name] === undefined || env[name] === '' ? fallback : (env[name] as string);
  const base = defaultSandboxOptions();
  const options = defaultSandboxOptions({
    host: text('SANDBOX_HOST', base.host),
    port: int('SANDBOX_PORT', base.port, 0, 65535),
    seed: text('SANDBOX_SEED', base.seed),
    etsyApp: {
      keystring: text('SANDBOX_ETSY_KEYSTRING', base.etsyApp.keystring),
      sharedSecret: text('SANDBOX_ETSY_SHARED_SECRET', base.etsyApp.sharedSecret),
      name: text('SANDBOX_ETSY_APP_NAME', base.etsyApp.name),
      // By default the product's own callback (ETSY_REDIRECT_URI, or the one on PUBLIC_ORIGIN,
      // itself derived from PORT when unset): the gateway's rule, libs/config etsyRedirectUri.
      redirectUris: text(
        'SANDBOX_ETSY_REDIRECT_URIS',
        env.ETSY_REDIRECT_URI || `${productOrigin(env)}/api/connections/etsy/callback`,
      )
        .split(',')
        .map((uri) => uri.trim())
        .filter(Boolean),
    },
    adminToken: text('SANDBOX_ADMIN_TOKEN', ''),
    accessTokenTtlSeconds: int('SANDBOX_ACCESS_TOKEN_TTL_SECONDS', base.accessTokenTtlSeconds, 1, 30 * 86_400),
    etsyQps: int('SANDBOX_ETSY_QPS', base.etsyQps, 1, 100_000),
    etsyQpd: int('SANDBOX_ETSY_QPD', base.etsyQpd, 1, 100_000_000),
    printifyRpm: int('SANDBOX_PRINTIFY_RPM', base.printifyRpm, 1, 1_000_000),
    requestLogSize: int('SANDBOX_REQUEST_LOG_SIZE', base.requestLogSize, 100, 10_000_000),
    maxOrdersPerTenant: int('SANDBOX_MAX_ORDERS_PER_TENANT', base.maxOrdersPerTenant, 1, 250_000),
    maxTenants: int('SANDBOX_MAX_TENANTS', base.maxTenants, 1, 100_000),
    tenantIdleSeconds: int('SANDBOX_TENANT_IDLE_SECONDS', base.tenantIdleSeconds, 60, 365 * 86_400),
    tenantMaxAgeSeconds: int('SANDBOX_TENANT_MAX_AGE_SECONDS', base.tenantMaxAgeSeconds, 60, 365 * 86_400),
    defaultTenant: text('SANDBOX_DEFAULT_TENANT', 'true') !== 'false',
    // The hosts the operator names, and the product's own public webhook host (its subscriptions point there).
    webhookHosts: [
      ...text('SANDBOX_WEBHOOK_HOSTS', '').split(','),
      env.WEBHOOK_PUBLIC_URL && URL.canParse(env.WEBHOOK_PUBLIC_URL) ? new URL(env.WEBHOOK_PUBLIC_URL).hostname : '',
    ]
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    etsyWebhook: etsyWebhookOf(env, problems),
    publicUrl: (env.SANDBOX_PUBLIC_URL || env.SANDBOX_URL || undefined)?.replace(/\/+$/, ''),
    webhookTimeScale: number('SANDBOX_WEBHOOK_TIME_SCALE', base.webhookTimeScale, 0.000001, 1000),
  });
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(options.etsyApp.keystring))
    problems.push('SANDBOX_ETSY_KEYSTRING may hold letters, digits, ".", "_" and "-"');
  if (options.etsyApp.sharedSecret.includes(':')) problems.push('SANDBOX_ETSY_SHARED_SECRET must not contain ":"');
  for (const uri of options.etsyApp.redirectUris) {
    if (!URL.canParse(uri)) problems.push(`SANDBOX_ETSY_REDIRECT_URIS: "${uri}" is not a URL`);
  }
  if (options.publicUrl !== undefined && !URL.canParse(options.publicUrl))
    problems.push('SANDBOX_PUBLIC_URL (or SANDBOX_URL) must be a URL');
  const loopback = isLoopbackHost(options.host);
  if (!options.adminToken && loopback && localAdminToken) options.adminToken = localAdminToken();
  // Its admin routes hand out sellers' Printify tokens: beyond loopback, never a guessable token.
  if (!options.adminToken)
    problems.push(
      `SANDBOX_ADMIN_TOKEN is required${loopback ? '' : ' when the sandbox listens beyond loopback (SANDBOX_HOST)'}`,
    );
  else if (
    !loopback &&
    (options.adminToken === RETIRED_DEFAULT_TOKEN || options.adminToken.length < MIN_EXPOSED_ADMIN_TOKEN_LENGTH)
  ) {
    problems.push(
      `SANDBOX_ADMIN_TOKEN must be at least ${MIN_EXPOSED_ADMIN_TOKEN_LENGTH} characters, and not the old default, when the sandbox listens beyond loopback (SANDBOX_HOST); e.g. openssl rand -hex 24`,
    );
  } else if (options.adminToken.length < 8) problems.push('SANDBOX_ADMIN_TOKEN must be at least 8 characters');
  if (problems.length > 0)
    throw new SandboxConfigError(`Invalid sandbox configuration:\n  - ${problems.join('\n  - ')}`);
  return options;
}

/**
 * The app-wide Etsy webhook subscription (Etsy keeps it in its developer portal):
 * SANDBOX_ETSY_WEBHOOK_URL and SANDBOX_ETSY_WEBHOOK_SECRET, by default the product's own
 * (`$WEBHOOK_PUBLIC_URL/api/webhooks/etsy` and ETSY_WEBHOOK_SECRET), as the gateway reads them.
 * None unless both are known.
 */
function etsyWebhookOf(env: Env, problems: string[]): EtsySubscription | null {
  const productUrl =
    env.WEBHOOK_PUBLIC_URL && URL.canParse(env.WEBHOOK_PUBLIC_URL)
      ? `${env.WEBHOOK_PUBLIC_URL.replace(/\/+$/, '')}/api/webhooks/etsy`
      : undefined;
  const url = env.SANDBOX_ETSY_WEBHOOK_URL || productUrl;
  const secret = env.SANDBOX_ETSY_WEBHOOK_SECRET || env.ETSY_WEBHOOK_SECRET;
  if (!url || !secret) return null;
  const hosts = new Set([new URL(URL.canParse(url) ? url : 'http://x').hostname.toLowerCase()]);
  const urlProblem = deliveryUrlProblem(url, hosts);
  const secretProblem = etsySecretProblem(secret);
  if (urlProblem) problems.push(`SANDBOX_ETSY_WEBHOOK_URL: ${urlProblem}`);
  if (secretProblem) problems.push(`SANDBOX_ETSY_WEBHOOK_SECRET (or ETSY_WEBHOOK_SECRET): ${secretProblem}`);
  return urlProblem || secretProblem ? null : { url, secret, events: [...ETSY_EVENTS] };
}

/**
 * True when the environment carries real Etsy app credentials (ETSY_API_KEY and ETSY_SHARED_SECRET,
 * as the product reads them): then the product talks to Etsy,
 * and the sandbox (and the demo's dev-login) must stay off. Credentials equal to the sandbox's
 * own do not count.
 */
export function realEtsyCredentials(env: Env = process.env): boolean {
  const keystring = env.ETSY_API_KEY ?? '';
  if (keystring === '' || !env.ETSY_SHARED_SECRET) return false;
  return keystring !== (env.SANDBOX_ETSY_KEYSTRING || 'sandbox-keystring');
}
