import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type Redis from 'ioredis';
import { DatabaseProbe } from '@pod/db';
import { Public } from '../auth/public.decorator';
import { REDIS } from '../core/core.module';

const CHECK_TIMEOUT_MS = 1_500;

/**
 * GET /healthz (readiness): 200 only when PostgreSQL and Redis both answer in time; 503 names
 * what failed. GET /livez (liveness): 200 while the process serves requests, dependencies
 * untouched, so an outage takes a gateway out of rotation without getting it restarted.
 */
@Controller()
export class HealthController {
  constructor(
    private readonly db: DatabaseProbe,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  @Public()
  @Get('livez')
  live() {
    return { status: 'ok', service: 'gateway' };
  }

  @Public()
  @Get('healthz')
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    const [postgres, redis] = await Promise.all([probe(() => this.db.ping()), probe(() => this.redis.ping())]);
    const ok = postgres === 'up' && redis === 'up';
    void reply.status(ok ? 200 : 503);
    return { status: ok ? 'ok' : 'unavailable', service: 'gateway', checks: { postgres, redis } };
  }
}

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}
