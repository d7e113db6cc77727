import { Type } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

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

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /** Prefix of every Redis key and pub/sub channel, so test runs and stacks can share one Redis. */
  @Matches(/^[a-z0-9_-]{1,40}$/i, { message: 'REDIS_PREFIX may hold letters, digits, _ and - (at most 40)' })
  REDIS_PREFIX = 'pod';

  /** Signs sessions and encrypts stored provider tokens; see loadConfig for the local fallback. */
  @IsString()
  @MinLength(32, { message: 'APP_SECRET must be at least 32 characters' })
  APP_SECRET: string;

  @IsEmail({}, { message: 'SUPPORT_EMAIL must be an email address' })
  SUPPORT_EMAIL = 'support@podprofit.app';

  /** Bearer credential for the operator routes under /api/admin; unset means those routes are closed. */
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'OPERATOR_TOKEN must be at least 16 characters' })
  OPERATOR_TOKEN?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent' = 'info';

  /** Port of a worker's health endpoint (each worker has its own default). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(65535)
  HEALTH_PORT?: number;

  /** Jobs one worker process runs at once (each queue has its own default). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(64)
  WORKER_CONCURRENCY?: number;

  /**
   * How long a stopping worker may take to finish its active job and close connections before
   * it exits anyway (exit 1). Keep it under the orchestrator's grace period.
   */
  @Type(() => Number)
  @IsInt()
  @Min(1_000)
  @Max(120_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /** Whole-request bound (a trickled body included). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 30_000;

  /** Bound for receiving a request's headers (slowloris). */
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  HTTP_HEADERS_TIMEOUT_MS = 15_000;

  /** Where the built web app lives; the gateway serves it when the folder exists. */
  @IsString()
  @MaxLength(500)
  WEB_DIST_DIR = 'web/dist';

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }
}
