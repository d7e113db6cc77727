import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { loadConfig, type AppConfig } from '@pod/config';
import { pinoOptions, prettyDestination } from '@pod/observability';
import { prepareDatabase } from '@pod/db';
import {
  createTestDatabase,
  uniqueRedisPrefix,
  TEST_APP_SECRET,
  TEST_OPERATOR_TOKEN,
  type TestDatabase,
} from '@pod/testing';
import { createGateway } from '../../src/app.factory';

/** The gateway's PUBLIC_ORIGIN in these tests: inject() sends `Host: localhost:80` by default. */
export const ORIGIN = 'http://localhost:80';
/** Headers a same-origin browser fetch carries. */
export const SAME_ORIGIN = { origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };

export interface TestGateway {
  app: NestFastifyApplication;
  config: AppConfig;
  logs: string[];
}

/** A run's shared resources: one fresh database and one Redis prefix, for one or more gateway replicas. */
export class GatewayTestBed {
  database!: TestDatabase;
  readonly redisPrefix = uniqueRedisPrefix('gw');
  private readonly apps: NestFastifyApplication[] = [];

  async setUp(): Promise<void> {
    this.database = await createTestDatabase('gw');
    await prepareDatabase({ DATABASE_URL: this.database.url });
  }

  /** One in-process gateway replica; logs are captured as JSON lines (or as `npm start` prints them, with `pretty`). */
  async start(
    env: Record<string, string> = {},
    onBeforeInit?: (app: NestFastifyApplication) => void,
    options: { pretty?: boolean } = {},
  ): Promise<TestGateway> {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: this.database.url,
      REDIS_PREFIX: this.redisPrefix,
      APP_SECRET: TEST_APP_SECRET,
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      WEB_DIST_DIR: 'gateway/test/support/web-dist',
      PUBLIC_ORIGIN: ORIGIN,
      LOG_LEVEL: 'info',
      // Passport keeps its strategies in one registry per process, so in-process replicas all
      // check sessions through the last one started: its session cache would hear another
      // replica's revocations only a tick later. Built gateways (session-replicas.int-spec.ts)
      // test the cache; here every check reads PostgreSQL.
      SESSION_CACHE_TTL_MS: '0',
      ...env,
    });
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const destination = options.pretty ? prettyDestination(sink) : sink;
    const app = await createGateway(config, { logger: pino(pinoOptions(config, 'gateway'), destination) });
    onBeforeInit?.(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    this.apps.push(app);
    return { app, config, logs };
  }

  /** Closes one replica before the others (a gateway going away mid-test). */
  async stop(gateway: TestGateway): Promise<void> {
    const index = this.apps.indexOf(gateway.app);
    if (index >= 0) this.apps.splice(index, 1);
    await gateway.app.close();
  }

  async tearDown(): Promise<void> {
    for (const app of this.apps.splice(0)) await app.close();
    await this.database?.drop();
  }
}

let counter = 0;
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}.${Date.now().toString(36)}.${counter}@example.com`;
}

export const STRONG_PASSWORD = 'Correct-Horse-7-Battery';

export async function register(
  app: NestFastifyApplication,
  email: string,
  password = STRONG_PASSWORD,
  remoteAddress?: string,
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/register',
    headers: SAME_ORIGIN,
    remoteAddress,
    payload: { email, password, confirmPassword: password, firstName: 'Test', lastName: 'Seller' },
  });
}

export async function login(app: NestFastifyApplication, email: string, password: string, remoteAddress?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: SAME_ORIGIN,
    remoteAddress,
    payload: { email, password },
  });
}

/** The session cookie of a response, as "name=value" ready for a Cookie header. */
export function sessionCookie(response: { headers: Record<string, unknown> }): string {
  const raw = response.headers['set-cookie'];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (typeof first !== 'string') throw new Error('no session cookie was set');
  return first.split(';')[0];
}
