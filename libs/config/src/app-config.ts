import { Type } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsIP,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { canonicalOrigin, parseTrustProxy } from './network-settings';
import { isCronPattern, isTimeZone } from './schedule-settings';
import { etsyWebhookSecretProblem, webhookBase, webhookPublicUrlProblem } from './webhook-settings';

/** Every process's settings, validated once at boot. Names mirror the environment variables. */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT = 5000;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/podprofit';

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  DATABASE_POOL_SIZE = 5;

  /**
   * Gateway: signed-in requests one user may have running at once in one gateway process; more
   * wait their turn (without a connection) and past USER_REQUEST_QUEUE get 429. Each running
   * request holds at most one pooled connection at a time, so one user never holds more than
   * this many of the DATABASE_POOL_SIZE connections, and the rest stay for other users, the
   * session checks and /healthz. Unset: half the pool, rounded down, at least 1; it must stay
   * under DATABASE_POOL_SIZE (issue 16, see deploy/operating.md for the sizing).
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @ValidateBy({
    name: 'userRequestConcurrency',
    validator: {
      validate: (value: unknown, args) =>
        typeof value === 'number' && underPool(value, (args?.object as AppConfig | undefined)?.DATABASE_POOL_SIZE),
      defaultMessage: () =>
        'USER_REQUEST_CONCURRENCY must be under DATABASE_POOL_SIZE (or 1 with a pool of 1), so one user cannot hold every connection',
    },
  })
  USER_REQUEST_CONCURRENCY?: number;

  /** Gateway: requests of one user waiting for a turn (see USER_REQUEST_CONCURRENCY); one more is answered 429 too_many_requests. */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000)
  USER_REQUEST_QUEUE = 16;

  /**
   * The role every runtime connection (gateway, workers) takes at its start, so queries run as a
   * role without SUPERUSER or BYPASSRLS and row-level security applies (ADR 0015); `none`: the
   * DATABASE_URL login's own role. Migrations always run as the login.
   */
  @Matches(/^[a-z_][a-z0-9_]{0,62}$/, {
    message: 'DATABASE_APP_ROLE must be a role name (lower-case letters, digits, _) or none',
  })
  DATABASE_APP_ROLE = 'podprofit_app';

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix of every Redis key and pub/sub channel, so test runs and stacks can share one Redis. */
  @Matches(/^[a-z0-9_-]{1,40}$/i, { message: 'REDIS_PREFIX may hold letters, digits, _ and - (at most 40)' })
  REDIS_PREFIX = 'pod';

  /** Signs sessions and encrypts stored provider tokens; see loadConfig for the local fallback. */
  @IsString()
  @MinLength(32, { message: 'APP_SECRET must be at least 32 characters' })
  APP_SECRET: string;

  /**
   * The provider-token encryption keys by version, `<version>:<secret>` separated by commas
   * (`2:<secret>,1:app-secret`); unset: version 1 from APP_SECRET. See token-keys.ts.
   */
  @IsOptional()
  @IsString()
  TOKEN_ENCRYPTION_KEYS?: string;

  /** The version new tokens are encrypted with; unset: the highest in TOKEN_ENCRYPTION_KEYS. */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'TOKEN_ENCRYPTION_KEY_CURRENT must be a whole number' })
  @Min(1, { message: 'TOKEN_ENCRYPTION_KEY_CURRENT must be at least 1' })
  TOKEN_ENCRYPTION_KEY_CURRENT?: number;

  @IsEmail({}, { message: 'SUPPORT_EMAIL must be an email address' })
  SUPPORT_EMAIL = 'support@podprofit.app';

  /** Bearer credential for the operator routes under /api/admin; unset means those routes are closed. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'OPERATOR_TOKEN must be at least 16 characters' })
  OPERATOR_TOKEN?: string;

  /**
   * What Bull Board may change. `read-only` (the default): nothing — no add, clean, empty,
   * obliterate, pause or scheduler edits, which bypass the producers and their checks.
   * `retry`: an operator may also retry failed jobs and promote delayed ones, nothing more.
   */
  @IsIn(['read-only', 'retry'], { message: 'BULL_BOARD_MODE must be read-only or retry' })
  BULL_BOARD_MODE: 'read-only' | 'retry' = 'read-only';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** json (one object per line, for log shippers) or pretty (one readable line, for `npm start`). */
  @IsIn(['json', 'pretty'])
  LOG_FORMAT: 'json' | 'pretty' = 'json';

  /** Port of a worker's health endpoint (each worker has its own default). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  HEALTH_PORT?: number;

  /**
   * Address a worker's health endpoint binds. Loopback by default, so a worker on a shared host
   * exposes nothing; the container image sets 0.0.0.0 so probes from outside the container reach it.
   */
  @IsIP()
  HEALTH_HOST = '127.0.0.1';

  /** Jobs one worker process runs at once (each queue has its own default). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_CONCURRENCY?: number;

  /**
   * A worker's job lock (BullMQ lockDuration; renewed every half while the event loop is free).
   * Unset: the queue's own default. Past it without a renewal, the job counts as stalled.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  WORKER_LOCK_DURATION_MS?: number;

  /** How often a worker looks for stalled jobs (BullMQ stalledInterval). Unset: the queue's default. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  WORKER_STALLED_INTERVAL_MS?: number;

  /** Stalls a job survives before it fails instead of running again (BullMQ maxStalledCount). Unset: the queue's default. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10)
  WORKER_MAX_STALLED_COUNT?: number;

  /**
   * The provider limits the sync workers keep under, across every replica (the shared Redis
   * token bucket never puts more in any sliding window, with a margin for late calls): Etsy requests a
   * second per connection, Printify requests a minute per merchant account. Lower them if Etsy
   * granted your app less.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000)
  ETSY_REQUESTS_PER_SECOND = 10;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60_000)
  PRINTIFY_REQUESTS_PER_MINUTE = 600;

  /** A sync worker's provider call is abandoned (and retried) when headers take longer than this… */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(300_000)
  PROVIDER_HEADERS_TIMEOUT_MS = 30_000;

  /** …or when the body takes longer than this. */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  PROVIDER_BODY_TIMEOUT_MS = 60_000;

  /**
   * How long a stopping worker may take to finish its active job and close connections before
   * it exits anyway (exit 1). Keep it under the orchestrator's grace period.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /**
   * How often the demo cleanup (expired demo accounts and their sandbox sellers) runs, as a
   * BullMQ job scheduler on the `maintenance` queue (libs/queue's SCHEDULES).
   */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(86_400)
  DEMO_CLEANUP_EVERY_SECONDS = 600;

  /**
   * Incremental syncs of every connected shop: every this many minutes a scheduled job starts a
   * run per connection (skipping those running). 0 turns the schedule off.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_440)
  SYNC_EVERY_MINUTES = 15;

  /**
   * Matching: a receipt younger than this many days with no Printify order yet is "pending"
   * (its order is probably on the way); older lone receipts are "unmatched".
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(90)
  MATCH_PENDING_DAYS = 7;

  /**
   * The nightly resync of every connected shop (cron pattern, 5 or 6 fields), in RESYNC_TZ.
   * `off` removes the scheduler (when a Kubernetes CronJob runs `cli.js resync` instead).
   */
  @ValidateBy({
    name: 'cronPattern',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (value === 'off' || isCronPattern(value)),
      defaultMessage: () =>
        'RESYNC_CRON must be a cron pattern such as "0 3 * * *" (minute hour day month weekday), or off',
    },
  })
  RESYNC_CRON = '0 3 * * *';

  /** The IANA time zone RESYNC_CRON is read in (e.g. Europe/London). */
  @ValidateBy({
    name: 'timeZone',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isTimeZone(value),
      defaultMessage: () => 'RESYNC_TZ must be an IANA time zone such as UTC or Europe/London',
    },
  })
  RESYNC_TZ = 'UTC';

  /**
   * When the fx-rate worker loads the ECB's daily rates: a cron pattern read in Europe/Berlin
   * (the ECB publishes around 16:00 CET on TARGET days; the second run catches a late file).
   * `off` removes the scheduler.
   */
  @ValidateBy({
    name: 'cronPattern',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (value === 'off' || isCronPattern(value)),
      defaultMessage: () =>
        'FX_RATES_CRON must be a cron pattern such as "20 16,18 * * 1-5" (minute hour day month weekday), or off',
    },
  })
  FX_RATES_CRON = '20 16,18 * * 1-5';

  /** Whole-request bound (a trickled body included). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /**
   * How long a gateway trusts a session it read from PostgreSQL before reading it again.
   * Revocations (logout, password change, demo removal) reach every gateway at once over Redis;
   * this bounds a revocation lost while a gateway's subscriber was reconnecting (ADR 0017-sessions).
   * 0 reads the session row on every request.
   */
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60_000)
  SESSION_CACHE_TTL_MS = 5_000;

  /** Bound for receiving a request's headers (slowloris). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_HEADERS_TIMEOUT_MS = 15_000;

  /**
   * The one origin browsers use for the app (scheme, host, optional port; no path), e.g.
   * `https://podprofit.example.com`. Unset: `http://localhost:$PORT`, what `npm start` prints.
   * Same-origin checks compare against it, the Etsy callback defaults to it, and a page request
   * on another local name of a local origin (127.0.0.1 for localhost) is redirected to it.
   */
  @IsOptional()
  @ValidateBy({
    name: 'publicOrigin',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && canonicalOrigin(value) !== undefined,
      defaultMessage: () =>
        'PUBLIC_ORIGIN must be an http(s) origin: scheme, host and optional port, no path (e.g. https://podprofit.example.com)',
    },
  })
  PUBLIC_ORIGIN?: string;

  /**
   * Proxies in front of the gateway whose X-Forwarded-For/-Proto we believe: a hop count
   * (`1` behind one Ingress) or addresses/CIDRs. Unset: none, clients connect directly.
   * See `parseTrustProxy`.
   */
  @IsOptional()
  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && 'trust' in parseTrustProxy(value),
      defaultMessage: (args) => {
        const parsed = parseTrustProxy(String(args?.value));
        return 'problem' in parsed ? parsed.problem : 'TRUST_PROXY is invalid';
      },
    },
  })
  TRUST_PROXY?: string;

  /** Where the built web app lives; the gateway serves it when the folder exists. */
  @IsString()
  @MaxLength(500)
  WEB_DIST_DIR = 'web/dist';

  /**
   * Etsy app keystring (the OAuth client_id). With ETSY_SHARED_SECRET it switches Etsy (and
   * Printify) to live mode; with neither set, the product runs in demo mode against the sandbox.
   */
  @ValidateIf((c: AppConfig) => c.ETSY_API_KEY !== undefined || c.ETSY_SHARED_SECRET !== undefined)
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, {
    message: 'ETSY_API_KEY must be set with ETSY_SHARED_SECRET (letters, digits, _ and -)',
  })
  ETSY_API_KEY?: string;

  /** Etsy app shared secret; sent as `x-api-key: keystring:secret`. Set together with ETSY_API_KEY. */
  @ValidateIf((c: AppConfig) => c.ETSY_API_KEY !== undefined || c.ETSY_SHARED_SECRET !== undefined)
  @Matches(/^[\x21-\x7e]{1,200}$/, {
    message: 'ETSY_SHARED_SECRET must be set with ETSY_API_KEY (printable, no spaces)',
  })
  ETSY_SHARED_SECRET?: string;

  /**
   * The OAuth callback registered with Etsy; must match it exactly. Unset: on the public origin
   * (`$PUBLIC_ORIGIN/api/connections/etsy/callback`), see `etsyRedirectUri`.
   */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'ETSY_REDIRECT_URI must be an http(s) URL without query or fragment' })
  ETSY_REDIRECT_URI?: string;

  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'ETSY_API_URL must be an http(s) URL' })
  ETSY_API_URL = 'https://openapi.etsy.com';

  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'ETSY_CONNECT_URL must be an http(s) URL' })
  ETSY_CONNECT_URL = 'https://www.etsy.com/oauth/connect';

  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'PRINTIFY_API_URL must be an http(s) URL' })
  PRINTIFY_API_URL = 'https://api.printify.com';

  /** The folder of the ECB's reference-rate files (eurofxref-daily.xml, …), live mode only (demo mode uses SANDBOX_URL). */
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'ECB_RATES_URL must be an http(s) URL' })
  ECB_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref';

  /** The built-in sandbox (Etsy, Printify, ECB) used in demo mode, i.e. without Etsy credentials. */
  @Matches(/^https?:\/\/[^\s?#]+$/, { message: 'SANDBOX_URL must be an http(s) URL' })
  SANDBOX_URL = 'http://127.0.0.1:5200';

  /**
   * Bearer token of the sandbox's admin API (demo accounts get their sandbox seller through it).
   * No default: unset, a local start reads the one generated into .data/sandbox-admin-token
   * (see sandboxAdminToken), as the sandbox does on loopback.
   */
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'SANDBOX_ADMIN_TOKEN must be at least 8 characters' })
  SANDBOX_ADMIN_TOKEN?: string;

  /**
   * The gateway's base URL as providers reach it, for webhook deliveries (`$WEBHOOK_PUBLIC_URL/
   * api/webhooks/…`): https in live mode; in demo mode http too (the sandbox is local). Unset: no
   * Printify subscriptions are made (syncs still run on their schedule). See webhookPublicUrlProblem.
   */
  @IsOptional()
  @ValidateBy({
    name: 'webhookPublicUrl',
    validator: {
      validate: (value: unknown, args) =>
        webhookPublicUrlProblem(value, Boolean((args?.object as AppConfig | undefined)?.etsyCredentialsConfigured)) ===
        null,
      defaultMessage: (args) =>
        webhookPublicUrlProblem(
          args?.value,
          Boolean((args?.object as AppConfig | undefined)?.etsyCredentialsConfigured),
        ) ?? 'WEBHOOK_PUBLIC_URL is invalid',
    },
  })
  WEBHOOK_PUBLIC_URL?: string;

  /**
   * The signing secret of the app's Etsy webhook (`whsec_…`, from Etsy's developer portal, where
   * the subscription to `$WEBHOOK_PUBLIC_URL/api/webhooks/etsy` is made). Unset: Etsy deliveries
   * are refused (404). In demo mode the sandbox signs with the same value.
   */
  @IsOptional()
  @ValidateBy({
    name: 'etsyWebhookSecret',
    validator: {
      validate: (value: unknown) => etsyWebhookSecretProblem(value) === null,
      defaultMessage: (args) => etsyWebhookSecretProblem(args?.value) ?? 'ETSY_WEBHOOK_SECRET is invalid',
    },
  })
  ETSY_WEBHOOK_SECRET?: string;

  /** WEBHOOK_PUBLIC_URL without a trailing slash, or null when webhooks are not set up. */
  get webhookPublicBase(): string | null {
    return this.WEBHOOK_PUBLIC_URL ? webhookBase(this.WEBHOOK_PUBLIC_URL) : null;
  }

  /** True when both Etsy app credentials are set: live mode. Otherwise demo mode (the sandbox). */
  get etsyCredentialsConfigured(): boolean {
    return Boolean(this.ETSY_API_KEY && this.ETSY_SHARED_SECRET);
  }

  /** PUBLIC_ORIGIN in canonical form, or the local default derived from PORT. */
  get publicOrigin(): string {
    return (this.PUBLIC_ORIGIN && canonicalOrigin(this.PUBLIC_ORIGIN)) || `http://localhost:${this.PORT}`;
  }

  /** Fastify's `trustProxy`: false, a hop count, or the trusted addresses and ranges. */
  get trustedProxies(): false | number | string[] {
    const parsed = parseTrustProxy(this.TRUST_PROXY);
    return 'trust' in parsed ? parsed.trust : false;
  }

  /** ETSY_REDIRECT_URI, or the callback on the public origin. */
  get etsyRedirectUri(): string {
    return this.ETSY_REDIRECT_URI ?? `${this.publicOrigin}/api/connections/etsy/callback`;
  }

  /** USER_REQUEST_CONCURRENCY, or its default: half the pool, rounded down, at least 1. */
  get userRequestConcurrency(): number {
    return this.USER_REQUEST_CONCURRENCY ?? Math.max(1, Math.floor(this.DATABASE_POOL_SIZE / 2));
  }

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }
}

/** One user's share of a pool of `poolSize`: at least one connection always left to everyone else (a pool of 1 has none to spare). */
function underPool(perUser: number, poolSize: number | undefined): boolean {
  const pool = typeof poolSize === 'number' ? poolSize : 5;
  return pool <= 1 ? perUser === 1 : perUser < pool;
}
