import { randomBytes } from 'node:crypto';
import type { SandboxOptions } from '../config';
import { TenantRegistry } from '../data/tenant-registry';
import { OAuthStore } from '../etsy/oauth-store';
import { FaultBook } from './faults';
import { SlidingWindowLimiter } from './rate-limit';
import { RequestLog } from './request-log';

/** Limits and lifetimes that tests may change while the sandbox runs (PATCH /__sandbox/settings). */
export interface LiveSettings {
  accessTokenTtlSeconds: number;
  etsyQps: number;
  etsyQpd: number;
  printifyRpm: number;
}

/** Everything one sandbox instance holds, all in memory. */
export interface SandboxState {
  options: SandboxOptions;
  live: LiveSettings;
  tenants: TenantRegistry;
  oauth: OAuthStore;
  faults: FaultBook;
  log: RequestLog;
  etsyLimiter: SlidingWindowLimiter;
  printifyLimiter: SlidingWindowLimiter;
  /** Signs the consent form, so a decision can only follow a page this sandbox rendered. */
  consentKey: Buffer;
  nowMs(): number;
  nowSeconds(): number;
}

export function createState(options: SandboxOptions): SandboxState {
  const live: LiveSettings = {
    accessTokenTtlSeconds: options.accessTokenTtlSeconds,
    etsyQps: options.etsyQps,
    etsyQpd: options.etsyQpd,
    printifyRpm: options.printifyRpm,
  };
  const nowMs = () => options.now();
  return {
    options,
    live,
    tenants: new TenantRegistry(options.seed),
    oauth: new OAuthStore(nowMs, () => live.accessTokenTtlSeconds),
    faults: new FaultBook(),
    log: new RequestLog(options.requestLogSize),
    etsyLimiter: new SlidingWindowLimiter(() => [
      { limit: live.etsyQps, windowMs: 1000 },
      { limit: live.etsyQpd, windowMs: 86_400_000 },
    ]),
    printifyLimiter: new SlidingWindowLimiter(() => [{ limit: live.printifyRpm, windowMs: 60_000 }]),
    consentKey: randomBytes(32),
    nowMs,
    nowSeconds: () => Math.floor(nowMs() / 1000),
  };
}
