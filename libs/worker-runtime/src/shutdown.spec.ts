import type { Logger } from 'pino';
import { armHardStop, DEFAULT_SHUTDOWN_TIMEOUT_MS, readShutdownTimeoutMs } from './shutdown';

const logger = { info: jest.fn(), error: jest.fn() } as unknown as Logger;

describe('shutdown bound', () => {
  it('reads SHUTDOWN_TIMEOUT_MS, defaulting to 10 s, and rejects nonsense', () => {
    expect(readShutdownTimeoutMs({})).toBe(DEFAULT_SHUTDOWN_TIMEOUT_MS);
    expect(readShutdownTimeoutMs({ SHUTDOWN_TIMEOUT_MS: '4000' })).toBe(4_000);
    for (const bad of ['abc', '10.5', '0', '-1', '9999999']) {
      expect(() => readShutdownTimeoutMs({ SHUTDOWN_TIMEOUT_MS: bad })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
    }
  });
});

describe('the hard-stop timer', () => {
  // A signal nobody else listens to in the test process; emitting it calls only our listeners.
  const SIGNAL: NodeJS.Signals = 'SIGUSR2';
  afterEach(() => {
    process.removeAllListeners(SIGNAL);
    jest.useRealTimers();
  });

  it('exits 1 once the bound passes after a signal, if the graceful path has not exited', () => {
    jest.useFakeTimers();
    const exit = jest.fn();
    armHardStop(logger, 5_000, exit, [SIGNAL]).hooksEnabled();
    process.emit(SIGNAL, SIGNAL);
    process.emit(SIGNAL, SIGNAL); // a second signal does not re-arm or exit early
    jest.advanceTimersByTime(4_999);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledTimes(1);
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits 0 at once when signalled before start-up finished (no job can be running)', () => {
    const exit = jest.fn();
    armHardStop(logger, 5_000, exit, [SIGNAL]);
    process.emit(SIGNAL, SIGNAL);
    expect(exit).toHaveBeenCalledWith(0);
  });
});
