import { NoTurnError, UserConcurrencyLimiter } from './user-concurrency';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('UserConcurrencyLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('runs perUser requests of a user at once, queues the next ones in order, refuses past the queue', async () => {
    const limiter = new UserConcurrencyLimiter({ perUser: 2, queue: 2, maxWaitMs: 10_000 });
    const first = await limiter.acquire('a');
    const second = await limiter.acquire('a');
    const order: string[] = [];
    const third = limiter.acquire('a').then((release) => (order.push('third'), release));
    const fourth = limiter.acquire('a').then((release) => (order.push('fourth'), release));
    await expect(limiter.acquire('a')).rejects.toEqual(new NoTurnError('queue_full'));
    expect(limiter.inFlight('a')).toEqual({ running: 2, waiting: 2 });
    // Another user is not in a's line.
    const other = await limiter.acquire('b');
    await settle();
    expect(order).toEqual([]);
    first();
    first(); // a second call of the same release changes nothing
    await settle();
    expect(order).toEqual(['third']);
    second();
    await settle();
    expect(order).toEqual(['third', 'fourth']);
    expect(limiter.inFlight('a')).toEqual({ running: 2, waiting: 0 });
    (await third)();
    (await fourth)();
    other();
    expect(limiter.inFlight('a')).toEqual({ running: 0, waiting: 0 });
    expect(limiter['lines'].size).toBe(0);
  });

  it('refuses a request that waited past maxWaitMs, and keeps the line right after it', async () => {
    jest.useFakeTimers();
    const limiter = new UserConcurrencyLimiter({ perUser: 1, queue: 4, maxWaitMs: 1_000 });
    const running = await limiter.acquire('a');
    const waiting = limiter.acquire('a');
    const outcome = waiting.then(
      () => 'admitted',
      (error: NoTurnError) => error.reason,
    );
    jest.advanceTimersByTime(1_001);
    expect(await outcome).toBe('waited_too_long');
    expect(limiter.inFlight('a')).toEqual({ running: 1, waiting: 0 });
    running();
    expect(limiter.inFlight('a')).toEqual({ running: 0, waiting: 0 });
    const again = await limiter.acquire('a');
    expect(limiter.inFlight('a')).toEqual({ running: 1, waiting: 0 });
    again();
  });

  it('with no queue, refuses as soon as the user has perUser running', async () => {
    const limiter = new UserConcurrencyLimiter({ perUser: 1, queue: 0, maxWaitMs: 1_000 });
    const release = await limiter.acquire('a');
    await expect(limiter.acquire('a')).rejects.toBeInstanceOf(NoTurnError);
    release();
    (await limiter.acquire('a'))();
  });
});
