/**
 * npm run bench:worst-body — what the most expensive body each route accepts costs the
 * gateway, and how /livez answers while such bodies arrive. Needs PostgreSQL and Redis (as
 * the tests do); uses a throwaway database and Redis prefix.
 */
import 'reflect-metadata';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import pino from 'pino';
import { loadConfig } from '@pod/config';
import { prepareDatabase } from '@pod/db';
import { pinoOptions } from '@pod/observability';
import { createTestDatabase, uniqueRedisPrefix, TEST_APP_SECRET, TEST_OPERATOR_TOKEN } from '@pod/testing';
import { createGateway } from '../src/app.factory';
import { SANDBOX_FORM_PATH } from '../src/http/security';
import { livezUnderHostileBodies, sweepHostileBodies, type RouteRef } from './hostile-load';

/** inject() sends `Host: localhost:80`; the gateway's PUBLIC_ORIGIN below is the same, so the guard lets bodies through to validation. */
const ORIGIN = 'http://localhost:80';
const SAME_ORIGIN = { origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };

async function main(): Promise<void> {
  const database = await createTestDatabase('bench');
  try {
    await prepareDatabase({ DATABASE_URL: database.url });
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      REDIS_PREFIX: uniqueRedisPrefix('bench'),
      APP_SECRET: TEST_APP_SECRET,
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      WEB_DIST_DIR: 'gateway/test/support/web-dist',
      LOG_LEVEL: 'info',
      PUBLIC_ORIGIN: ORIGIN,
    });
    // Logs are formatted as in production, then dropped: their cost counts, their volume does not print.
    const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
    const app = await createGateway(config, { logger: pino(pinoOptions(config, 'gateway'), discard) });
    const routes: RouteRef[] = [];
    app
      .getHttpAdapter()
      .getInstance()
      .addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) {
          // The consent form and the demo sign-in read no JSON body (see hostile-input.int-spec.ts).
          if (
            !['GET', 'HEAD', 'OPTIONS'].includes(method) &&
            ![SANDBOX_FORM_PATH, '/api/auth/dev-login'].includes(route.url)
          )
            routes.push({ method, url: route.url });
        }
      });
    await app.init();
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const password = 'Correct-Horse-7-Battery';
      const signedUp = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        headers: SAME_ORIGIN,
        payload: {
          email: `bench.${Date.now()}@example.com`,
          password,
          confirmPassword: password,
          firstName: 'Bench',
          lastName: 'Mark',
        },
      });
      const cookie = String(([signedUp.headers['set-cookie']].flat()[0] ?? '').split(';')[0]);
      const headers = { ...SAME_ORIGIN, cookie, authorization: `Bearer ${TEST_OPERATOR_TOKEN}` };

      const costs = await sweepHostileBodies(app, routes, headers, { runs: 5 });
      console.log('Worst hostile body per route (CPU time of the whole request, cheapest of 5 runs):');
      const byRoute = new Map<string, (typeof costs)[number]>();
      for (const cost of costs) if ((byRoute.get(cost.route)?.cpuMs ?? -1) < cost.cpuMs) byRoute.set(cost.route, cost);
      console.table(
        [...byRoute.values()].map((c) => ({
          route: c.route,
          body: c.body,
          status: c.statusCode,
          'reply bytes': c.replyBytes,
          'CPU ms': Number(c.cpuMs.toFixed(2)),
        })),
      );
      const accepted = costs.filter((c) => c.statusCode !== 413);
      const worstAccepted = accepted.sort((a, b) => b.cpuMs - a.cpuMs)[0];
      console.log(
        `Worst body any route reads (not refused as too large): ${worstAccepted.route}, ${worstAccepted.body}: ${worstAccepted.cpuMs.toFixed(2)} ms CPU`,
      );

      const base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      const traffic = { attackPath: '/api/auth/login', samples: 300, headers: SAME_ORIGIN };
      const quiet = await livezUnderHostileBodies(base, { ...traffic, attackers: 0, ratePerSecond: 0 });
      const steady = await livezUnderHostileBodies(base, { ...traffic, attackers: 2, ratePerSecond: 50 });
      const flood = await livezUnderHostileBodies(base, { ...traffic, attackers: 2, ratePerSecond: 0 });
      const ms = (value: number) => Number(value.toFixed(1));
      const row = (l: typeof quiet) => ({
        samples: l.samples,
        'CPU p50 ms': ms(l.cpu.p50),
        'CPU p99 ms': ms(l.cpu.p99),
        'CPU max ms': ms(l.cpu.max),
        'wall p50 ms': ms(l.wall.p50),
        'wall p99 ms': ms(l.wall.p99),
        'wall max ms': ms(l.wall.max),
      });
      console.log(
        '/livez over HTTP, one probe every 10 ms; hostile bodies of every kind sent to /api/auth/login from another process.',
      );
      console.log(
        "CPU = the gateway process's CPU time while the probe was outstanding; wall = the probe's wall time.",
      );
      console.table({
        'no hostile bodies': row(quiet),
        '50 hostile bodies/s': row(steady),
        'back-to-back on 2 connections': row(flood),
      });
      console.log(
        `Machine load average while measuring: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')} on ${cpus().length} cores`,
      );
    } finally {
      await app.close();
    }
  } finally {
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
