import { shortReason, TimeoutError, WarningThrottle, withTimeout } from './timing';

describe('timing helpers', () => {
  afterEach(() => jest.useRealTimers());

  it('withTimeout passes a prompt answer through and rejects a late one', async () => {
    await expect(withTimeout(Promise.resolve('PONG'), 50)).resolves.toBe('PONG');
    jest.useFakeTimers();
    const never = new Promise(() => undefined);
    const raced = withTimeout(never, 1_000);
    jest.advanceTimersByTime(1_000);
    await expect(raced).rejects.toBeInstanceOf(TimeoutError);
  });

  it('lets a repeated warning through once per window and counts the rest', () => {
    let now = 0;
    const throttle = new WarningThrottle(30_000, () => now);
    expect(throttle.take()).toBe(0);
    now = 10_000;
    expect(throttle.take()).toBeNull();
    expect(throttle.take()).toBeNull();
    now = 30_000;
    expect(throttle.take()).toBe(2);
  });

  it('shortens reasons to one line', () => {
    expect(shortReason(new Error('line one\nline two'))).toBe('line one line two');
    expect(shortReason('x'.repeat(500))).toHaveLength(160);
  });
});
