import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { UserConcurrencyLimiter } from './user-concurrency';
import { registerUserTurns } from './user-turns';

/** A bare Fastify with the hook: the session cookie's value is the user id itself (subjectOf), one turn and no queue per user. */
async function appWith(limiter: UserConcurrencyLimiter): Promise<{ app: FastifyInstance; finish: () => void }> {
  const app = Fastify();
  await app.register(fastifyCookie);
  registerUserTurns(app, {
    limiter,
    cookieName: 'session',
    subjectOf: (jwt) => (jwt.startsWith('user-') ? jwt : null),
    refuse: (error, _request, reply) =>
      void reply
        .status(error.getStatus())
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ code: error.code }),
  });
  let finishSlow: () => void = () => undefined;
  app.get('/api/slow', () => new Promise((resolve) => (finishSlow = () => resolve({ ok: true }))));
  app.get('/api/fast', () => ({ ok: true }));
  app.get('/healthz', () => ({ ok: true }));
  await app.ready();
  return { app, finish: () => finishSlow() };
}

const get = (app: FastifyInstance, url: string, session?: string) =>
  app.inject({ method: 'GET', url, cookies: session ? { session } : {} });

describe('registerUserTurns', () => {
  it("refuses a user's request past their share with 429 too_many_requests and Retry-After, not other users' nor unsigned requests", async () => {
    const limiter = new UserConcurrencyLimiter({ perUser: 1, queue: 0, maxWaitMs: 1_000 });
    const { app, finish } = await appWith(limiter);
    const slow = get(app, '/api/slow', 'user-a');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(limiter.inFlight('user-a')).toEqual({ running: 1, waiting: 0 });
    const refused = await get(app, '/api/fast', 'user-a');
    expect([refused.statusCode, refused.json(), refused.headers['retry-after']]).toEqual([
      429,
      { code: 'too_many_requests' },
      '1',
    ]);
    expect((await get(app, '/api/fast', 'user-b')).statusCode).toBe(200);
    expect((await get(app, '/api/fast')).statusCode).toBe(200);
    expect((await get(app, '/api/fast', 'not-a-valid-jwt')).statusCode).toBe(200);
    expect((await get(app, '/healthz', 'user-a')).statusCode).toBe(200);
    finish();
    expect((await slow).statusCode).toBe(200);
    expect((await get(app, '/api/fast', 'user-a')).statusCode).toBe(200);
    await app.close();
  });

  it('gives every turn back once its response is over, refused and failed ones included', async () => {
    const limiter = new UserConcurrencyLimiter({ perUser: 2, queue: 0, maxWaitMs: 1_000 });
    const { app } = await appWith(limiter);
    for (let i = 0; i < 20; i += 1) {
      expect((await get(app, '/api/fast', 'user-a')).statusCode).toBe(200);
      expect((await get(app, '/api/missing', 'user-a')).statusCode).toBe(404);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(limiter.inFlight('user-a')).toEqual({ running: 0, waiting: 0 });
    await app.close();
  });
});
