import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { systemClock, type Clock } from '../http/clock';
import {
  assertValidLimit,
  DEFAULT_MAX_WAIT_MS,
  RateLimitWaitError,
  type AcquireOptions,
  type RateLimit,
  type RateLimiter,
} from './limiter';

/**
 * Time comes from Redis (TIME), never from the calling process, so every replica sees one
 * clock. A bucket is a hash {tokens, ts}; a block is a string holding the epoch ms it ends
 * at; an override is a hash {capacity, refill} with a TTL.
 */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
`;

/**
 * The bucket (KEYS[1]) refilled up to now, at the lower of the caller's limit (ARGV[1] capacity,
 * ARGV[2] refill/s) and any override (KEYS[2]): sets capacity, refill, tokens and ts.
 */
const REFILLED_BUCKET = `local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local o = redis.call('HMGET', KEYS[2], 'capacity', 'refill')
if o[1] and o[2] then
  capacity = math.min(capacity, tonumber(o[1]))
  refill = math.min(refill, tonumber(o[2]))
end
local s = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = capacity
local ts = now
if s[1] and s[2] then
  tokens = tonumber(s[1])
  ts = tonumber(s[2])
  if now > ts then
    tokens = tokens + (now - ts) / 1000 * refill
    ts = now
  end
end
if tokens > capacity then tokens = capacity end
`;

/**
 * KEYS[1] bucket, KEYS[2] override, KEYS[3..] block keys. ARGV capacity, refill/s, max wait ms.
 * Returns {0, wait} granted (a token reserved, send after wait ms), {1, wait, i} blocked by
 * KEYS[2 + i] for wait ms, {2, wait} refused: the token is further away than max wait.
 */
const ACQUIRE = `${NOW}
local worst = 0
local worstIndex = 0
for i = 3, #KEYS do
  local untilMs = tonumber(redis.call('GET', KEYS[i]) or '0') or 0
  if untilMs - now > worst then
    worst = untilMs - now
    worstIndex = i - 2
  end
end
if worstIndex > 0 then return {1, math.ceil(worst), worstIndex} end
${REFILLED_BUCKET}
local maxWait = tonumber(ARGV[3])
tokens = tokens - 1
local wait = 0
if tokens < 0 then wait = math.ceil(-tokens / refill * 1000) end
if wait > maxWait then return {2, wait} end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'ts', string.format('%.17g', ts))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / refill * 1000) + 1000)
return {0, wait}
`;

/** KEYS[1] block key; ARGV[1] duration ms. Extends, never shortens. Returns the ms left. */
const BLOCK = `${NOW}
local untilMs = math.ceil(now + tonumber(ARGV[1]))
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if current >= untilMs then return math.ceil(current - now) end
redis.call('SET', KEYS[1], tostring(untilMs), 'PX', math.max(1, math.ceil(untilMs - now)))
return math.ceil(untilMs - now)
`;

/** KEYS[1] block key. Returns the ms left, 0 when not blocked. */
const BLOCKED_FOR = `${NOW}
local current = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if current <= now then return 0 end
return math.ceil(current - now)
`;

/** KEYS[1] bucket, KEYS[2] override. ARGV capacity, refill/s, max tokens. */
const DRAIN = `${NOW}
${REFILLED_BUCKET}
local cap = tonumber(ARGV[3])
if tokens > cap then tokens = cap end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'ts', string.format('%.17g', ts))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / refill * 1000) + 1000)
return 1
`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const SCRIPTS = {
  acquire: script(ACQUIRE),
  block: script(BLOCK),
  blockedFor: script(BLOCKED_FOR),
  drain: script(DRAIN),
};

export interface RedisRateLimiterOptions {
  /** An ioredis client; the limiter never closes it. */
  redis: Redis;
  /** Prefix of every key (REDIS_PREFIX); keys are `<prefix>:ratelimit:<scope>:{bucket|block|override}`. */
  keyPrefix: string;
  /** Only for sleeping between checks; time itself comes from Redis. */
  clock?: Clock;
}

/**
 * The production RateLimiter: one token bucket per scope in Redis, updated by Lua scripts
 * (atomic, so replicas cannot both take the last token), with blocks for a provider's
 * `Retry-After` that hold for every replica until they end.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly clock: Clock;

  constructor(options: RedisRateLimiterOptions) {
    if (!options.keyPrefix) throw new Error('RedisRateLimiter needs a key prefix');
    this.redis = options.redis;
    this.prefix = `${options.keyPrefix}:ratelimit`;
    this.clock = options.clock ?? systemClock;
  }

  async acquire(scope: string, limit: RateLimit, options: AcquireOptions = {}): Promise<void> {
    assertValidLimit(limit);
    const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    const blockScopes = [scope, ...(options.blockScopes ?? [])];
    const keys = [
      this.key(scope, 'bucket'),
      this.key(scope, 'override'),
      ...blockScopes.map((s) => this.key(s, 'block')),
    ];
    let waited = 0;
    for (;;) {
      const budget = Math.max(0, maxWaitMs - waited);
      const reply = (await this.run(SCRIPTS.acquire, keys, [
        limit.capacity,
        limit.refillPerSecond,
        budget,
      ])) as number[];
      const [status, waitMs] = [Number(reply[0]), Number(reply[1])];
      if (status === 0) {
        // One millisecond of slack: Node's timers may fire up to a millisecond early.
        if (waitMs > 0) await this.clock.sleep(waitMs + 1);
        return;
      }
      if (status === 1) {
        const blockedScope = blockScopes[Number(reply[2]) - 1] ?? scope;
        if (waitMs > budget) throw new RateLimitWaitError(waitMs, blockedScope);
        await this.clock.sleep(waitMs + 1);
        waited += waitMs + 1;
        continue;
      }
      throw new RateLimitWaitError(waitMs, null);
    }
  }

  async block(scope: string, durationMs: number): Promise<void> {
    await this.run(SCRIPTS.block, [this.key(scope, 'block')], [Math.max(0, Math.ceil(durationMs))]);
  }

  async blockedForMs(scope: string): Promise<number> {
    return Number(await this.run(SCRIPTS.blockedFor, [this.key(scope, 'block')], []));
  }

  async lowerLimit(scope: string, limit: RateLimit, ttlMs: number): Promise<void> {
    assertValidLimit(limit);
    const key = this.key(scope, 'override');
    await this.redis
      .multi()
      .hset(key, 'capacity', String(limit.capacity), 'refill', String(limit.refillPerSecond))
      .pexpire(key, Math.max(1, Math.ceil(ttlMs)))
      .exec();
  }

  async drain(scope: string, limit: RateLimit, maxTokens: number): Promise<void> {
    assertValidLimit(limit);
    await this.run(
      SCRIPTS.drain,
      [this.key(scope, 'bucket'), this.key(scope, 'override')],
      [limit.capacity, limit.refillPerSecond, maxTokens],
    );
  }

  private key(scope: string, kind: 'bucket' | 'block' | 'override'): string {
    return `${this.prefix}:${scope}:${kind}`;
  }

  /** EVALSHA, loading the script with EVAL once a server does not know it (after a restart, say). */
  private async run(s: Script, keys: string[], args: (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(s.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
        return this.redis.eval(s.source, keys.length, ...keys, ...args);
      }
      throw error;
    }
  }
}
